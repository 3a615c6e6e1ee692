"""Two builds compared on bench.random's samples in one device call: the tree before a change (`--base`, a copy of its
library and Python sources, built into a folder of its own) and this tree (installed), the sample run in the order
base, new, new, base so that drift between runs falls on both, and a held-out sample once each. Each pair of runs is
compared on ecgemm's own GPU times, so that cuBLAS's drift between runs (2-4% on small products) stays out of the
ratio; the whole sample is scored against cuBLAS averaged over all four runs.

    python tools/device.py random-ab --base .baseline --sample="--seed 26 --max-minutes 0.9" --held-out="--seed 34"
    python tools/random_ab.py compare NEW/results.json[.gz] BASE/results.json[.gz]
    python tools/random_ab.py whole FOLDER          (a random-ab folder: random-{base,new}{1,2}/)

Writes under $OUT: build-{base,new}.txt, random-<tree><run>/ (bench.random's table and results.json.gz, the timing
samples left out), routes_ab-new<run>-base<run>.txt and whole.txt.
"""
from __future__ import annotations

import argparse
import collections
import gzip
import json
import math
import os
import pathlib
import re
import shlex
import subprocess
import sys
from typing import Dict, List, Sequence

if __package__ in (None, ""):  # run as a script: make the `tools` package importable
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from tools import _common  # noqa: E402

MODES = ("tf32tf32", "halfhalf", "auto")
PEER = "cublas"  # bench.random's key for cuBLAS SGEMM (2-D) and torch.bmm (batches)
SAMPLE_KEYS = ("gpu_samples_ms", "e2e_samples_ms")  # per-round times: most of a results.json's size


def load(path) -> dict:
    path = str(path)
    with (gzip.open if path.endswith(".gz") else open)(path, "rt") as f:
        return json.load(f)


def geomean(xs: Sequence[float]) -> float:
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else float("nan")


def _plan(route: str) -> str:
    return re.sub(r" est=\S+", "", route)  # the same plan whatever its estimate


def compare(new: dict, base: dict) -> List[str]:
    """Per section and mode: each family's products on the same route (time base / new, geometric mean), then every
    product whose plan changed, slowest first."""
    lines = []
    for kind in ("gemm", "batched"):
        old_cases = {c["id"]: c for c in base[kind]}
        for mode in new["modes"]:
            same, moved, peer = collections.defaultdict(list), [], []
            for c in new[kind]:
                b = old_cases.get(c["id"])
                if b is None:
                    continue
                n_m, b_m = c["methods"].get(mode, {}), b["methods"].get(mode, {})
                if "gpu_ms" not in n_m or "gpu_ms" not in b_m:
                    continue
                peer.append(b["methods"][PEER]["gpu_ms"] / c["methods"][PEER]["gpu_ms"])
                ratio = b_m["gpu_ms"] / n_m["gpu_ms"]
                if _plan(n_m["route"]) == _plan(b_m["route"]):
                    same[n_m["family"]].append(ratio)
                else:
                    moved.append((c, b_m, n_m, ratio))
            lines.append(f"{kind} {mode}: same route, time base / new: " + ", ".join(
                f"{fam} {geomean(r):.3f} ({len(r)})" for fam, r in sorted(same.items())) +
                f"; cuBLAS base / new {geomean(peer):.3f}")
            if moved:
                lines.append(f"  {len(moved)} routes changed, {geomean([m[3] for m in moved]):.3f}")
            for c, b_m, n_m, ratio in sorted(moved, key=lambda m: m[3]):
                lines.append(
                    f"    {c['m']} x {c['k']} x {c['n']} {c.get('op', '')}: {b_m['gpu_ms'] * 1e3:.0f} -> "
                    f"{n_m['gpu_ms'] * 1e3:.0f} us ({ratio:.3f}), x cuBLAS {b_m['x_cublas']:.2f} -> "
                    f"{n_m['x_cublas']:.2f}, residual / SGEMM's {b_m.get('residual_ratio', float('nan')):.2f} -> "
                    f"{n_m.get('residual_ratio', float('nan')):.2f}\n      {b_m['route']}\n      {n_m['route']}")
    return lines


def whole(runs: Dict[str, dict]) -> List[str]:
    """The whole sample per tree: x cuBLAS with cuBLAS the geometric mean of every run's time and each tree the mean of
    its own runs (`runs` keyed base1, new1, ...), and how many cases reach 0.95x."""
    trees = sorted({name.rstrip("0123456789") for name in runs})
    first = next(iter(runs.values()))
    lines = []
    for kind in ("gemm", "batched"):
        by_run = {name: {c["id"]: c for c in r[kind]} for name, r in runs.items()}
        for mode in [m for m in MODES if m in first["modes"]]:
            cells = []
            for tree in trees:
                ratios = []
                for case_id in by_run[next(iter(runs))]:
                    try:
                        peer = geomean([by_run[n][case_id]["methods"][PEER]["gpu_ms"] for n in runs])
                        own = geomean([by_run[n][case_id]["methods"][mode]["gpu_ms"] for n in runs
                                       if n.rstrip("0123456789") == tree])
                    except KeyError:  # a case one run did not reach, or a mode that did not run it
                        continue
                    ratios.append(peer / own)
                cells.append(f"{tree} {geomean(ratios):.3f}x, {sum(r >= 0.95 for r in ratios)} of {len(ratios)} "
                             f">= 0.95x")
            lines.append(f"{kind} {mode}: " + "; ".join(cells))
    return lines


def strip_samples(path: pathlib.Path) -> pathlib.Path:
    """results.json[.gz] without its per-round timing samples, written as results.json.gz (the plain file removed)."""
    results = load(path)
    for kind in ("gemm", "batched"):
        for case in results.get(kind, []):
            for method in case.get("methods", {}).values():
                for key in SAMPLE_KEYS:
                    method.pop(key, None)
    out = path.with_name("results.json.gz")
    with gzip.open(out, "wt", compresslevel=9) as f:
        json.dump(results, f, separators=(",", ":"))
    if path != out:
        path.unlink()
    return out


def run_labels(order: str, held_out: bool) -> List[tuple]:
    """(tree, label) of each bench.random run, in the order they run: the sample's runs numbered per tree, then the
    held-out sample's ('t') once per tree, base first."""
    trees = [t.strip() for t in order.split(",") if t.strip()]
    if not trees or any(t not in ("base", "new") for t in trees) or set(trees) != {"base", "new"}:
        raise SystemExit(f"random-ab: --order lists base and new, comma-separated; got {order!r}")
    seen = collections.Counter()
    labels = []
    for tree in trees:
        seen[tree] += 1
        labels.append((tree, f"{tree}{seen[tree]}"))
    if held_out:
        labels += [("base", "baset"), ("new", "newt")]
    return labels


def pairs(labels: Sequence[tuple]) -> List[tuple]:
    """(new label, base label) of the runs to compare: the n-th of each tree, and the held-out pair."""
    names = [label for _, label in labels]
    return [(n, "base" + n[3:]) for n in names if n.startswith("new") and "base" + n[3:] in names]


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--base", default=".baseline",
                   help="the tree before the change: a folder with its CMakeLists.txt, libecgemm/ and python/, "
                        "relative to the repository root (default .baseline)")
    p.add_argument("--sample", default="--seed 26 --max-minutes 0.9",
                   help="bench.random's arguments for the sample (default %(default)r)")
    p.add_argument("--held-out", default="",
                   help="bench.random's arguments for a held-out sample run once per tree (default: none)")
    p.add_argument("--order", default="base,new,new,base", help="the sample's runs (default %(default)s)")
    p.add_argument("--archs", default="90a-real", help="CMake CUDA architectures (default %(default)s)")
    p.add_argument("--build-timeout", type=float, default=540, help="seconds for the builds (default 540)")
    p.add_argument("--timeout", type=float, default=95, help="seconds for each bench.random run (default 95)")
    p.add_argument("--work", default="/tmp/random-ab", help="build folders and the base's site (default %(default)s)")


def _install(tree: str, work: pathlib.Path, name: str, archs: str, target: bool) -> List[str]:
    cmd = [sys.executable, "-m", "pip", "install", "--no-deps", "--no-build-isolation", "--no-index",
           "-C", f"cmake.define.ECGEMM_CUDA_ARCHITECTURES={archs.replace(',', ';')}",
           "-C", f"build-dir={work / ('build-' + name)}"]
    return cmd + (["--target", str(work / "site-base")] if target else []) + [tree]


def run(args) -> int:
    from tools.device import TIMEOUT_EXIT, print_tail, run_logged

    out, work, root = _common.out_dir(), pathlib.Path(args.work), _common.ROOT
    labels = run_labels(args.order, bool(args.held_out))
    if not (root / args.base / "CMakeLists.txt").is_file():
        raise SystemExit(f"random-ab: {args.base} holds no tree to build (no CMakeLists.txt)")
    work.mkdir(parents=True, exist_ok=True)
    # The base builds beside this tree's install: half the wall time of building them in turn.
    with open(out / "build-base.txt", "w") as log:
        base_build = subprocess.Popen(_install(args.base, work, "base", args.archs, True), cwd=root,
                                      stdout=log, stderr=subprocess.STDOUT)
        rc_new = run_logged(_install(".", work, "new", args.archs, False), "build-new.txt", args.build_timeout,
                            tail=3)
        try:
            rc_base = base_build.wait(timeout=args.build_timeout)
        except subprocess.TimeoutExpired:
            base_build.kill()
            rc_base = TIMEOUT_EXIT
    print_tail(out / "build-base.txt", 3)
    if rc_new or rc_base:
        print(f"random-ab: builds exited {rc_new} (this tree) and {rc_base} (base)")
        return rc_new or rc_base
    worst = 0
    for tree, label in labels:
        env = dict(os.environ)
        if tree == "base":
            env["PYTHONPATH"] = os.pathsep.join([str(work / "site-base"), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
        sample = args.held_out if label.endswith("t") else args.sample
        cmd = [sys.executable, "-m", "bench.random", *shlex.split(sample), "--out", str(out / f"random-{label}"),
               "--no-plots"]
        rc = run_logged(cmd, f"random-{label}.log", args.timeout, env=env, tail=0)
        table = out / f"random-{label}" / "table.md"
        summary = [line[:60] for line in (table.read_text().splitlines() if table.is_file() else [])
                   if re.match(r"^\| (tf32tf32|halfhalf|auto) \| \d+ \| ", line)]
        print(f"random {label}: exit {rc}", *summary, sep="\n")
        worst = worst or rc
    results = {label: out / f"random-{label}" / "results.json" for _, label in labels}
    for new_label, base_label in pairs(labels):
        if results[new_label].is_file() and results[base_label].is_file():
            text = compare(load(results[new_label]), load(results[base_label]))
            (out / f"routes_ab-{new_label}-{base_label}.txt").write_text("\n".join(text) + "\n")
            print(f"== {new_label} against {base_label}",
                  *[line[:160] for line in text if not line.startswith("    ")], sep="\n")
    main_runs = {label: load(path) for label, path in results.items() if not label.endswith("t") and path.is_file()}
    if {name.rstrip("0123456789") for name in main_runs} == {"base", "new"}:
        text = whole(main_runs)
        (out / "whole.txt").write_text("\n".join(text) + "\n")
        print("== whole sample", *text, sep="\n")
    for path in results.values():
        if path.is_file():
            strip_samples(path)
    return worst


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python tools/random_ab.py", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="what", required=True)
    p = sub.add_parser("compare", help="two runs of one sample, on ecgemm's own times")
    p.add_argument("new")
    p.add_argument("base")
    p = sub.add_parser("whole", help="a random-ab folder's sample runs against cuBLAS averaged over them")
    p.add_argument("folder", type=pathlib.Path)
    args = parser.parse_args(argv)
    if args.what == "compare":
        print("\n".join(compare(load(args.new), load(args.base))))
    else:
        runs = {d.name[len("random-"):]: load(next(d.glob("results.json*")))
                for d in sorted(args.folder.glob("random-*")) if d.is_dir() and not d.name.endswith("t")
                and any(d.glob("results.json*"))}
        print("\n".join(whole(runs)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
