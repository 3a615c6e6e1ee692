"""Two bench.random runs of one sample (two builds, one call) compared on ecgemm's own GPU times, so that cuBLAS's
drift between the runs (3-4% on small products in call 1, where no route changed) stays out of the ratio: per mode,
each family's products on the same route (time base / new, geometric mean), then every product whose route changed
(the plan, its cost estimate aside).

    python routes_ab.py NEW/results.json[.gz] BASE/results.json[.gz]
"""
import collections
import gzip
import json
import math
import re
import sys


def load(path):
    with (gzip.open if path.endswith(".gz") else open)(path, "rt") as f:
        return json.load(f)


def geomean(xs):
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else float("nan")


def main(new_path, base_path):
    new, base = load(new_path), load(base_path)
    for kind in ("gemm", "batched"):
        old_cases = {c["id"]: c for c in base[kind]}
        for mode in new["modes"]:
            same, moved = collections.defaultdict(list), []
            cublas = []
            for c in new[kind]:
                b = old_cases[c["id"]]
                n_m, b_m = c["methods"].get(mode, {}), b["methods"].get(mode, {})
                if "gpu_ms" not in n_m or "gpu_ms" not in b_m:
                    continue
                cublas.append(b["methods"]["cublas"]["gpu_ms"] / c["methods"]["cublas"]["gpu_ms"])
                ratio = b_m["gpu_ms"] / n_m["gpu_ms"]
                if re.sub(r" est=\S+", "", n_m["route"]) == re.sub(r" est=\S+", "", b_m["route"]):
                    same[n_m["family"]].append(ratio)
                else:
                    moved.append((c, b_m, n_m, ratio))
            print(f"{kind} {mode}: same route, time base / new: " + ", ".join(
                f"{fam} {geomean(r):.3f} ({len(r)})" for fam, r in sorted(same.items())) +
                f"; cuBLAS base / new {geomean(cublas):.3f}")
            if moved:
                print(f"  {len(moved)} routes changed, {geomean([m[3] for m in moved]):.3f}")
            for c, b_m, n_m, ratio in sorted(moved, key=lambda m: m[3]):
                print(f"    {c['m']} x {c['k']} x {c['n']} {c.get('op', '')}: {b_m['gpu_ms'] * 1e3:.0f} -> "
                      f"{n_m['gpu_ms'] * 1e3:.0f} us ({ratio:.3f}), x cuBLAS {b_m['x_cublas']:.2f} -> "
                      f"{n_m['x_cublas']:.2f}, residual / SGEMM's {b_m.get('residual_ratio', float('nan')):.2f} -> "
                      f"{n_m.get('residual_ratio', float('nan')):.2f}\n      {b_m['route']}\n      {n_m['route']}")


if __name__ == "__main__":
    main(*sys.argv[1:3])
