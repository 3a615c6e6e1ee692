"""The routes a tree's planner changes on random-ab runs, each timed where an A/B ran it: for every product of the runs'
samples, this tree's plan (ecgemm_internal_plan_on on a described H100, the library under ECGEMM_LIBRARY) against the
route the base run recorded; where they differ, each A/B folder whose new run took this tree's route for that product
gives base time / new time, in one process. So a tree whose routes are each some measured tree's can be scored
without another device call. With --base-lib (the base tree's library), a product counts as changed where the two
libraries' plans differ, so that what the described H100 plans apart from the GPU (GEMV's layouts on tiny products)
is left out.

    ECGEMM_LIBRARY=... python replay_routes.py call4 call3 [--base-lib BASE.so]
"""
import gzip
import json
import math
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from refit_row import F, abi  # noqa: E402


def load(folder, run):
    return json.load(gzip.open(pathlib.Path(folder) / f"random-{run}" / "results.json.gz"))


def main(folders, base_lib=None):
    planner = base_planner = None
    for sample, run in (("seed 26", "1"), ("held out, seed 34", "t")):
        bases = [load(f, "base" + run) for f in folders]
        news = [load(f, "new" + run) for f in folders]
        planner = planner or F.Planner(bases[0].get("env", {}))
        if base_lib and base_planner is None:  # another process: both libraries share a soname
            import os
            import subprocess
            env = dict(os.environ, ECGEMM_LIBRARY=base_lib)
            base_planner = json.loads(subprocess.run([sys.executable, __file__, "--plans", *folders], env=env,
                                                     check=True, capture_output=True, text=True).stdout)
        for section in ("gemm", "batched"):
            ratios = []
            for case in bases[0][section]:
                gemm, batch = abi(case)
                ours = planner.plan("tf32tf32", None, gemm, batch)[0].split(" est=")[0]
                before = case["methods"]["tf32tf32"]["route"].split(" est=")[0]
                if ours == before or (base_planner and base_planner[run][section][case["id"]] == ours):
                    continue
                seen = []
                for folder, base, new in zip(folders, bases, news):
                    b = {c["id"]: c for c in base[section]}[case["id"]]["methods"]["tf32tf32"]
                    n = {c["id"]: c for c in new[section]}[case["id"]]["methods"]["tf32tf32"]
                    if n["route"].split(" est=")[0] == ours and b["route"].split(" est=")[0] == before:
                        seen.append((folder, b["gpu_ms"] / n["gpu_ms"]))
                shape = f"{case.get('batch', 1)} x {case['m']} x {case['k']} x {case['n']} {case.get('op', '')}"
                where = ", ".join(f"{f} {r:.3f}" for f, r in seen) or "not timed"
                print(f"{sample} {section} {shape}: {before.split()[2]} -> {ours.split()[2]}: {where}")
                if seen:
                    ratios.append(seen[0][1])
            if ratios:
                g = math.exp(sum(map(math.log, ratios)) / len(ratios))
                print(f"== {sample} {section}: {len(ratios)} changed routes timed, base / this tree {g:.3f} "
                      f"(min {min(ratios):.3f}, max {max(ratios):.3f})")


def plans(folders):
    """{run: {section: {case id: plan}}} of this library, for the base runs' products."""
    out = {}
    for run in ("1", "t"):
        base = load(folders[0], "base" + run)
        planner = F.Planner(base.get("env", {}))
        out[run] = {s: {c["id"]: planner.plan("tf32tf32", None, *abi(c))[0].split(" est=")[0] for c in base[s]}
                    for s in ("gemm", "batched")}
    return out


if __name__ == "__main__":
    args = sys.argv[1:]
    if args[0] == "--plans":
        print(json.dumps(plans(args[1:])))
        sys.exit(0)
    base = args[args.index("--base-lib") + 1] if "--base-lib" in args else None
    main([a for a in args if a != "--base-lib" and a != base], base)
