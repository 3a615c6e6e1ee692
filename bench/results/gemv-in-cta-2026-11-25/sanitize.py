"""A few GEMVs of every in-CTA form (along k: 2, 4, 8 warps a line; along the long side: 1 ... 16 lanes a row
group; thin side 1 ... 4; 16-byte and unaligned loads), for compute-sanitizer's racecheck and memcheck: each
checked against float64 (relative Frobenius residual) and printed with its plan."""
import os

import torch

import ecgemm

os.environ["ECGEMM_FAMILY"] = "gemv"

torch.backends.cuda.matmul.allow_tf32 = False
SHAPES = [(1, 2066, 1, "NN"), (1, 4358, 1, "NT"), (16, 4708, 1, "NT"), (1, 587, 4, "TT"), (4, 904, 1, "TT"),
          (2, 1144, 7, "NN"), (1, 5393, 2, "TN"), (3, 240, 7, "TN"), (715, 452, 1, "TT"), (2, 631, 4, "NN"),
          (25, 463, 4, "TN"), (2, 309, 57, "TN")]
worst = 0.0
for i, (m, k, n, op) in enumerate(SHAPES):
    for pad in (0, 3):
        g = torch.Generator(device="cuda").manual_seed(i)
        a = torch.rand(*((k, m + pad) if op[0] == "T" else (m, k + pad)), device="cuda", generator=g)
        b = torch.rand(*((n, k + pad) if op[1] == "T" else (k, n + pad)), device="cuda", generator=g)
        a = (a[:, :m] if op[0] == "T" else a[:, :k])
        b = (b[:, :k] if op[1] == "T" else b[:, :n])
        a, b = (a.t() if op[0] == "T" else a), (b.t() if op[1] == "T" else b)
        out = torch.full((m, n), float("nan"), device="cuda")
        ecgemm.matmul(a, b, out=out, mode="tf32tf32")
        ref = a.double() @ b.double()
        res = float(torch.linalg.norm(out.double() - ref) / torch.linalg.norm(ref))
        worst = max(worst, res)
        print(f"{m} x {k} x {n} {op} pad {pad}: residual {res:.2e} | {ecgemm.explain(a, b, mode='tf32tf32')}")
assert worst < 1e-6, worst
print("worst residual", worst)
