"""GPU time of the split kernel (PyTorch profiler) of one ecgemm.matmul call per mode and
operand layout: a @ b with a and/or b a transposed view (read in place, the other index
contiguous). python tools/split_layouts.py SIZE [MODE ...]"""
import sys

import torch
from torch.profiler import ProfilerActivity, profile

import ecgemm

s = int(sys.argv[1])
modes = sys.argv[2:] or ["halfhalf", "tf32tf32", "auto"]
x = torch.rand(s, s, device="cuda") * 2 - 1
y = torch.rand(s, s, device="cuda") * 2 - 1
out = torch.empty(s, s, device="cuda")
layouts = {"a@b": (x, y), "a.T@b": (x.T, y), "a@b.T": (x, y.T), "a.T@b.T": (x.T, y.T)}
for mode in modes:
    for name, (a, b) in layouts.items():
        for _ in range(5):
            ecgemm.matmul(a, b, out=out, mode=mode)
        torch.cuda.synchronize()
        with profile(activities=[ProfilerActivity.CUDA]) as prof:
            for _ in range(10):
                ecgemm.matmul(a, b, out=out, mode=mode)
            torch.cuda.synchronize()
        us = sum((getattr(e, "device_time_total", 0) or 0) for e in prof.key_averages()
                 if "split_" in e.key) / 10
        print(f"{mode:>9} {s}^3 {name:>8}  split {us:7.1f} us")
