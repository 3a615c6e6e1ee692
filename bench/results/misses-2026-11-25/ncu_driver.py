"""Two calls each of ecgemm (tf32tf32, the planner's route) and cuBLAS SGEMM (torch.matmul, TF32 off) per listed
product, for ncu: "m:k:n:op" arguments (bench's row-major convention)."""
import sys

import torch

import ecgemm

torch.backends.cuda.matmul.allow_tf32 = False
for spec in sys.argv[1:]:
    m, k, n, op = spec.split(":")
    m, k, n = int(m), int(k), int(n)
    ta, tb = op[0] == "T", op[1] == "T"
    a = torch.rand((k, m) if ta else (m, k), device="cuda")
    b = torch.rand((n, k) if tb else (k, n), device="cuda")
    a, b = (a.t() if ta else a), (b.t() if tb else b)
    out = torch.empty((m, n), device="cuda")
    print(spec, ecgemm.explain(a, b, mode="tf32tf32"), flush=True)
    for _ in range(2):
        ecgemm.matmul(a, b, out=out, mode="tf32tf32")
        torch.matmul(a, b, out=out)
    torch.cuda.synchronize()
