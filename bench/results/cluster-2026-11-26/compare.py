"""bench.random's results of this tree (NEW) against main's (BASE), from one call: × cuBLAS new over old
(geometric mean) per route class where the route is the same, and per (old class -> new class) where it changed.

    python compare.py NEW/results.json[.gz] BASE/results.json[.gz]
"""
import gzip
import json
import math
import sys


def load(path):
    return json.load(gzip.open(path) if path.endswith(".gz") else open(path))


def gm(xs):
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else float("nan")


def route_class(method):
    route = method["route"]
    if " cluster " in route:
        return "fused_mma, cluster-reduced"
    if method["family"] == "fused_mma":
        tile = route.split("tile=")[1].split()[0]
        return f"fused_mma {tile}" + ("" if " splits=1 " in route else ", split")
    return method["family"]


def main(new_path, base_path):
    new, base = load(new_path), load(base_path)
    for part in ("gemm", "batched"):
        base_cases = {c["id"]: c for c in base[part]}
        for mode in new["modes"]:
            groups, moved = {}, {}
            for case in new[part]:
                old = base_cases.get(case["id"])
                n, o = case["methods"].get(mode), old and old["methods"].get(mode)
                if not n or not o or "x_cublas" not in n or "x_cublas" not in o:
                    continue
                if n["route"].split(" est=")[0] != o["route"].split(" est=")[0]:
                    key = f"{route_class(o)} -> {route_class(n)}"
                    moved.setdefault(key, []).append(n["x_cublas"] / o["x_cublas"])
                    continue
                groups.setdefault(route_class(o), []).append(n["x_cublas"] / o["x_cublas"])
            rows = ", ".join(f"{k} {gm(v):.3f} ({len(v)})" for k, v in sorted(groups.items()))
            every = [x for v in moved.values() for x in v]
            print(f"{part} {mode}: x cuBLAS new over old, same route: {rows}")
            print(f"  {len(every)} routes changed, {gm(every):.3f}" + "".join(
                f"\n    {k}: {gm(v):.3f} ({len(v)}, {min(v):.2f} .. {max(v):.2f})"
                for k, v in sorted(moved.items(), key=lambda kv: -len(kv[1]))))


if __name__ == "__main__":
    main(*sys.argv[1:3])
