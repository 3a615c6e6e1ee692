"""One fused_mma product in tf32tf32 and in AUTO (the same route plus AUTO's FP32-block guard), for ncu:
python guard_probe.py MODE M K N. Runs the call five times (ncu skips the first launches)."""
import sys

import torch

import ecgemm

mode, m, k, n = sys.argv[1], *map(int, sys.argv[2:5])
g = torch.Generator(device="cuda").manual_seed(1)
a = torch.rand(m, k, device="cuda", generator=g) * 2 - 1
b = torch.rand(k, n, device="cuda", generator=g) * 2 - 1
print(ecgemm.explain(a, b, mode=mode))
for _ in range(5):
    c = ecgemm.matmul(a, b, mode=mode)
torch.cuda.synchronize()
