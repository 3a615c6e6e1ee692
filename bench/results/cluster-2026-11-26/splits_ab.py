"""The held-out shapes whose tf32tf32 splits fused_mma reduces in a cluster (cluster_shapes.txt: m k n op pad_a
pad_b tile, bench.random's conventions), timed as gemv-2026-11-25/ab.py times (GPU time of back-to-back calls,
cuBLAS in the same process) on the planner's route and, with exp_splits.patch applied, the same tile with its
splits capped (ECGEMM_EXP_SPLITS=1, and 2 where the route takes 4 or more):

    python splits_ab.py cluster_shapes.txt out.json
"""
import importlib.util
import json
import os
import pathlib
import re
import sys

import torch

import ecgemm

HERE = pathlib.Path(__file__).resolve().parent
spec = importlib.util.spec_from_file_location("ab", HERE.parent / "gemv-2026-11-25" / "ab.py")
ab = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ab)


def timed(a, b, out, env):
    os.environ.update(env)
    try:
        route = ecgemm.explain(a, b, mode="tf32tf32")
        us = ab.gpu_us(lambda: ecgemm.matmul(a, b, out=out, mode="tf32tf32"))
        return {"us": us, "route": route}
    finally:
        for key in env:
            os.environ.pop(key, None)


def main(shapes_path, out_path):
    rows = []
    for i, line in enumerate(open(shapes_path)):
        line = line.split("#")[0].split()
        if not line:
            continue
        m, k, n, op, pa, pb, tile = int(line[0]), int(line[1]), int(line[2]), line[3], int(line[4]), int(line[5]), line[6]
        ta, tb = op[0] == "T", op[1] == "T"
        a = ab.operand(*((k, m) if ta else (m, k)), pa, ta, 2 * i)
        b = ab.operand(*((n, k) if tb else (k, n)), pb, tb, 2 * i + 1)
        out = torch.empty((m, n), device="cuda")
        row = {"m": m, "k": k, "n": n, "op": op, "pad_a": pa, "pad_b": pb, "tile": tile,
               "cublas": ab.gpu_us(lambda: torch.matmul(a, b, out=out)), "methods": {}}
        row["methods"]["planner"] = timed(a, b, out, {})
        splits = int(re.search(r"splits=(\d+)", row["methods"]["planner"]["route"]).group(1))
        for cap in (1, 2) if splits >= 4 else (1,):
            row["methods"][f"cap{cap}"] = timed(a, b, out, {"ECGEMM_EXP_SPLITS": str(cap),
                                                            "ECGEMM_FAMILY": f"fused_mma:{tile}"})
        rows.append(row)
        print(f"{m:6d} {k:6d} {n:6d} {op} cublas {row['cublas']:6.2f} " + " ".join(
            f"{name} {v['us']:6.2f} [{v['route'].split('tile=')[1].split(' workspace')[0]}]"
            for name, v in row["methods"].items()), flush=True)
    json.dump({"device": torch.cuda.get_device_name(), "rows": rows}, open(out_path, "w"), indent=1)


if __name__ == "__main__":
    main(*sys.argv[1:3])
