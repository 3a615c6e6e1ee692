"""The held-out sample's stream-tile products (tf32tf32), × cuBLAS in a new build over the base build's, same round,
split by whether C's rows (the ABI's m: the product's n, C being row-major) are a multiple of 4 floats.

    python stream_class.py NEW/results.json.gz BASE/results.json.gz
"""
import gzip
import json
import math
import sys


def main(new_path, base_path):
    new, base = (json.load(gzip.open(p)) for p in (new_path, base_path))
    old = {c["id"]: c for c in base["gemm"]}
    groups = {}
    for case in new["gemm"]:
        n, o = case["methods"]["tf32tf32"], old[case["id"]]["methods"]["tf32tf32"]
        if "tile=stream" not in n.get("route", "") or not n.get("x_cublas") or not o.get("x_cublas"):
            continue
        key = "aligned" if case["n"] % 4 == 0 else "misaligned"
        groups.setdefault(key, []).append((n["x_cublas"] / o["x_cublas"], n["x_cublas"], o["x_cublas"]))
    for key, v in sorted(groups.items()):
        gm = math.exp(sum(math.log(r) for r, _, _ in v) / len(v))
        print(f"{key}: {len(v)} cases, new / base {gm:.3f}; < 0.95x cuBLAS: new {sum(x < 0.95 for _, x, _ in v)}, "
              f"base {sum(x < 0.95 for _, _, x in v)}")


if __name__ == "__main__":
    main(*sys.argv[1:])
