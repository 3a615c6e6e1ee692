"""One ecgemm call under ncu (--profile-from-start off): a warm-up call, then one profiled.

    python one_call.py BATCH M K N MODE
"""
import sys

import torch

import ecgemm

batch, m, k, n = map(int, sys.argv[1:5])
mode = sys.argv[5]
g = torch.Generator(device="cuda").manual_seed(1)
a = torch.rand(batch, m, k, device="cuda", generator=g) * 2 - 1
b = torch.rand(batch, k, n, device="cuda", generator=g) * 2 - 1
c = torch.empty(batch, m, n, device="cuda")
ecgemm.matmul(a, b, mode=mode, out=c)
torch.cuda.synchronize()
torch.cuda.profiler.start()
ecgemm.matmul(a, b, mode=mode, out=c)
torch.cuda.synchronize()
torch.cuda.profiler.stop()
print(ecgemm.explain(a, b, mode=mode))
