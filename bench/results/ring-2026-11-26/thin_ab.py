"""simt pinned in two builds on the same sample (bench.random --families simt): per case where the new build's
route is a thin tile, × cuBLAS new over old, by k band and over all; and the thin cases of >= 20 us against cuBLAS
in each build.

    python thin_ab.py NEW/results.json[.gz] BASE/results.json[.gz] [MODE]
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "cluster-2026-11-26"))
from compare import gm, load  # noqa: E402


def main(new_path, base_path, mode="tf32tf32"):
    new, base = load(new_path), load(base_path)
    old = {c["id"]: c for c in base["gemm"]}
    key = f"{mode}@simt"
    bands, big = {}, []
    for case in new["gemm"]:
        n, o = case["methods"].get(key), old.get(case["id"], {}).get("methods", {}).get(key)
        if not n or not o or "tile=thin" not in n.get("route", "") or not n.get("x_cublas") or not o.get("x_cublas"):
            continue
        k = case["k"]
        band = "256-1023" if k < 1024 else "1024-4095" if k < 4096 else "4096+"
        ratio = n["x_cublas"] / o["x_cublas"]
        bands.setdefault(band, []).append(ratio)
        bands.setdefault("all", []).append(ratio)
        if case["methods"]["cublas"]["gpu_ms"] >= 0.02:
            big.append((case["methods"]["cublas"]["gpu_ms"], case, n, o))
    for band, v in sorted(bands.items()):
        print(f"{mode} simt pinned, thin tile in the new build, k {band}: new / old {gm(v):.3f} ({len(v)}; "
              f"min {min(v):.2f}, max {max(v):.2f}; >= 1.0 {sum(x >= 1 for x in v) / len(v):.0%})")
    print(f"{len(big)} of them with cuBLAS >= 20 us: x cuBLAS new (old)")
    for t, case, n, o in sorted(big, key=lambda r: -r[0]):
        print(f"  {case['m']} x {case['k']} x {case['n']} {case['op']}: cuBLAS {t * 1e3:.1f} us, {n['x_cublas']:.2f} "
              f"({o['x_cublas']:.2f}), residual ratio {n.get('residual_ratio', float('nan')):.2f} "
              f"({o.get('residual_ratio', float('nan')):.2f})")


if __name__ == "__main__":
    main(*sys.argv[1:])
