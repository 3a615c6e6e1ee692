"""Two bench.random runs of one seed, case by case, in MODE (tf32tf32 unless named): for the products the second run
routes to ROUTE (a substring of the route) and for the rest, the first run's GPU time over the second's and how many
ran below 0.95x and 1.0x cuBLAS in each.

    python sweep_delta.py BEFORE/results.json.gz AFTER/results.json.gz "fused_mma method=tf32tf32 tile=32x32" [MODE]
"""
import gzip
import json
import math
import sys


def cases(path, mode):
    d = json.load(gzip.open(path))
    out = {}
    for c in d["gemm"] + d.get("batched", []):
        t = c["methods"].get(mode, {})
        if "x_cublas" in t:
            out[(c["id"], c.get("batch", 1))] = t
    return out


def main(before, after, route, mode="tf32tf32"):
    b, a = cases(before, mode), cases(after, mode)
    shared = [key for key in a if key in b]
    for name, keys in ((route, [x for x in shared if route in a[x]["route"]]),
                       ("the rest", [x for x in shared if route not in a[x]["route"]])):
        own = math.exp(sum(math.log(b[x]["gpu_ms"] / a[x]["gpu_ms"]) for x in keys) / len(keys))
        (b95, a95), (b1, a1) = [[sum(r[x]["x_cublas"] < t for x in keys) for r in (b, a)] for t in (0.95, 1.0)]
        print(f"{name}: {len(keys)} products; own GPU time before / after {own:.3f}; "
              f"below 0.95x cuBLAS {b95} -> {a95}, below 1.0x {b1} -> {a1}")


if __name__ == "__main__":
    main(*sys.argv[1:5])
