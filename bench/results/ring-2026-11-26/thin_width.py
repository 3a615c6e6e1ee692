"""simt pinned in two builds (bench.random --families simt): where the new build's route is a thin tile, x cuBLAS new
over old by the thin side's width class (rounded up to 8) and by cuBLAS time (under / from 20 us).

    python thin_width.py NEW/results.json[.gz] BASE/results.json[.gz]
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "cluster-2026-11-26"))
from compare import gm, load  # noqa: E402


def main(new_path, base_path, key="tf32tf32@simt"):
    new, base = load(new_path), {c["id"]: c for c in load(base_path)["gemm"]}
    groups = {}
    for case in new["gemm"]:
        n, o = case["methods"].get(key), base.get(case["id"], {}).get("methods", {}).get(key)
        if not n or not o or "tile=thin" not in n.get("route", ""):
            continue
        width = (min(case["m"], case["n"]) + 7) // 8 * 8
        size = "under 20 us" if case["methods"]["cublas"]["gpu_ms"] < 0.02 else "from 20 us"
        groups.setdefault((width, size), []).append(n["x_cublas"] / o["x_cublas"])
    print("| width | cuBLAS time | cases | new / old | min | max | >= 1.0 |")
    print("|---:|---|---:|---:|---:|---:|---:|")
    for (width, size), v in sorted(groups.items()):
        print(f"| {width} | {size} | {len(v)} | {gm(v):.3f} | {min(v):.2f} | {max(v):.2f} | "
              f"{sum(x >= 1 for x in v) / len(v):.0%} |")


if __name__ == "__main__":
    main(*sys.argv[1:3])
