"""GPU time per kernel of one ecgemm.matmul call (PyTorch profiler), for A/B checks.
python tools/kernel_times.py MODE M K N"""
import sys

import torch
from torch.profiler import ProfilerActivity, profile

import ecgemm

mode, m, k, n = sys.argv[1], *map(int, sys.argv[2:5])
a = torch.rand(m, k, device="cuda") * 2 - 1
b = torch.rand(k, n, device="cuda") * 2 - 1
out = torch.empty(m, n, device="cuda")
for _ in range(20):
    ecgemm.matmul(a, b, out=out, mode=mode)
torch.cuda.synchronize()
with profile(activities=[ProfilerActivity.CUDA]) as prof:
    for _ in range(20):
        ecgemm.matmul(a, b, out=out, mode=mode)
    torch.cuda.synchronize()
for e in sorted(prof.key_averages(), key=lambda e: -(getattr(e, "device_time_total", 0) or 0)):
    us = getattr(e, "device_time_total", 0) or 0
    if us:
        print(f"{us / 20:9.1f} us  {e.key[:110]}")
