"""fused_mma with each tile pinned on operands that are not 16-byte aligned (odd leading dimensions, a 4-byte
offset), every layout, ragged edges and k tails, one batch: the element-wise 4-byte copies, for compute-sanitizer.
Each output against an FP64 product (relative Frobenius residual below 1e-6); exits 1 on a miss."""
import os
import sys

import torch

import ecgemm

SHAPES = [(37, 29, 45), (130, 257, 300), (1, 700, 513), (65, 33, 7), (9, 109, 70)]
bad = 0
for tile in (32, 64):
    os.environ["ECGEMM_FAMILY"] = f"fused_mma:{tile}"
    for i, (m, k, n) in enumerate(SHAPES):
        for op in ("NN", "NT", "TN", "TT"):
            ta, tb = op[0] == "T", op[1] == "T"
            ra, ca = (k, m) if ta else (m, k)
            rb, cb = (n, k) if tb else (k, n)
            sa = torch.rand(ra * (ca + 3) + 1, device="cuda") * 2 - 1
            sb = torch.rand(rb * (cb + 3) + 1, device="cuda") * 2 - 1
            a = sa[1:].view(ra, ca + 3)[:, :ca]
            b = sb[1:].view(rb, cb + 3)[:, :cb]
            a, b = (a.t() if ta else a), (b.t() if tb else b)
            c = torch.full((m, n), float("nan"), device="cuda")
            ecgemm.matmul(a, b, out=c, mode="tf32tf32")
            ref = a.double() @ b.double()
            res = float(torch.linalg.norm(c.double() - ref) / torch.linalg.norm(ref))
            ok = res < 1e-6
            bad += not ok
            print(f"tile {tile} {m}x{k}x{n} {op}: residual {res:.2e} {'ok' if ok else 'MISS'}", flush=True)
    x = torch.rand((7, 33, 127), device="cuda") * 2 - 1
    y = torch.rand((7, 127, 35), device="cuda") * 2 - 1
    res = float(torch.linalg.norm(ecgemm.matmul(x, y, mode="tf32tf32").double() - torch.bmm(x.double(), y.double()))
                / torch.linalg.norm(torch.bmm(x.double(), y.double())))
    bad += not res < 1e-6
    print(f"tile {tile} batch 7 x (33 x 127 x 35): residual {res:.2e}", flush=True)
print(f"{bad} misses")
sys.exit(1 if bad else 0)
