"""fused_mma's tiles pinned in several builds on the same sample (bench.random --families): per pin and mode, the
geometric mean of (× cuBLAS in a build) / (× cuBLAS in the first other build), by the stages a CTA walks
(ceil(k / splits / 32)); and the thin cases' best pinned tile against cuBLAS in each build.

    python pinned.py NEW/results.json[.gz] BASE/results.json[.gz] [OTHER/results.json[.gz] ...]
"""
import gzip
import json
import math
import re
import sys


def load(path):
    return json.load(gzip.open(path) if path.endswith(".gz") else open(path))


def gm(xs):
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else float("nan")


def stages(case, route):
    splits = int(re.search(r"splits=(\d+)", route).group(1))
    return math.ceil(math.ceil(case["k"] / splits) / 32)


BANDS = ((1, 1), (2, 3), (4, 15), (16, 63), (64, 10**9))


def table(runs, names):
    base = runs[1]
    keys = sorted({key for case in base.values() for key in case["methods"] if "@fused_mma:" in key})
    print("| pin | stages a CTA | cases | " + " | ".join(f"{n} / {names[1]}" for n in names if n != names[1]) + " |")
    print("|---|---|---:|" + "---:|" * (len(names) - 1))
    for key in keys:
        for lo, hi in BANDS:
            ratios = {n: [] for n in names if n != names[1]}
            count = 0
            for cid, case in base.items():
                b = case["methods"].get(key)
                if not b or not b.get("x_cublas") or not lo <= stages(case, b["route"]) <= hi:
                    continue
                others = [run.get(cid, {}).get("methods", {}).get(key) for run in runs]
                if not all(o and o.get("x_cublas") for o in others):
                    continue
                count += 1
                for n, o in zip(names, others):
                    if n != names[1]:
                        ratios[n].append(o["x_cublas"] / b["x_cublas"])
            if count:
                hi_text = "+" if hi > 10**8 else str(hi)
                print(f"| {key} | {lo}–{hi_text} | {count} | " + " | ".join(f"{gm(r):.3f}" for r in ratios.values()) + " |")
    print()
    for mode in ("tf32tf32", "halfhalf"):
        print(f"{mode}: best pinned fused_mma tile × cuBLAS (geomean, share >= 0.95, cases with cuBLAS >= 20 us):")
        for n, run in zip(names, runs):
            best = []
            for cid, case in run.items():
                if case["methods"]["cublas"]["gpu_ms"] < 0.02:
                    continue
                xs = [m["x_cublas"] for k, m in case["methods"].items() if k.startswith(mode + "@") and m.get("x_cublas")]
                if xs:
                    best.append(max(xs))
            print(f"  {n}: {len(best)} cases, {gm(best):.3f}, {sum(x >= 0.95 for x in best) / max(1, len(best)):.0%}")


def main(paths):
    runs = [{c["id"]: c for c in load(p)["gemm"] + load(p)["batched"]} for p in paths]
    names = ["new", "base"] + [f"other{i}" for i in range(2, len(paths))]
    if len(paths) > 2:
        names[2:] = ["v64"] + names[3:]
    table(runs, names)


if __name__ == "__main__":
    main(sys.argv[1:])
