"""fused_mma's cluster-reduced splits (tests/test_fused_mma_gpu.py: CLUSTER_SHAPES, 2 to 8 splits a tile on
132 SMs, ragged tiles), each tile pinned, tf32tf32, for compute-sanitizer: each output against an FP64
product (relative Frobenius residual below 1e-6) over a NaN-poisoned C; exits 1 on a miss."""
import os
import pathlib
import sys

import torch

import ecgemm

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[3] / "tests"))
from test_fused_mma_gpu import CLUSTER_SHAPES  # noqa: E402

bad = 0
for tile, shapes in CLUSTER_SHAPES.items():
    os.environ["ECGEMM_FAMILY"] = f"fused_mma:{tile}"
    for m, n, k in shapes:
        a = (torch.rand((k, m), device="cuda") * 2 - 1).t()  # column-major, as the test's
        b = (torch.rand((n, k), device="cuda") * 2 - 1).t()
        c = torch.full((m, n), float("nan"), device="cuda")
        ecgemm.matmul(a, b, out=c, mode="tf32tf32")
        ref = a.double() @ b.double()
        res = float(torch.linalg.norm(c.double() - ref) / torch.linalg.norm(ref))
        ok = res < 1e-6
        bad += not ok
        print(f"tile {tile} {m}x{k}x{n}: {ecgemm.explain(a, b, mode='tf32tf32')}: residual {res:.2e} "
              f"{'ok' if ok else 'MISS'}", flush=True)
print(f"{bad} misses")
sys.exit(1 if bad else 0)
