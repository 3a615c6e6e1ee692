"""One call of ecgemm tf32tf32 (the planner's route) per batched shape given as batch:m:k:n, on
torch.bmm's operands, for ncu to profile (call 5)."""
import sys

import torch

import ecgemm

for spec in sys.argv[1:]:
    count, m, k, n = (int(x) for x in spec.split(":"))
    a = torch.rand((count, m, k), device="cuda") * 2 - 1
    b = torch.rand((count, k, n), device="cuda") * 2 - 1
    print(spec, ecgemm.explain(a, b, mode="tf32tf32"), flush=True)
    ecgemm.matmul(a, b, mode="tf32tf32")
    torch.bmm(a, b)
    torch.cuda.synchronize()
