"""One shape, one method, called a few times, for ncu: `python profile_small.py M K N METHOD` where METHOD
is cublas or an ecgemm family pinned in tf32tf32 (fused_mma, simt, fused_wgmma, planes) or `routed`."""
import os
import sys

import torch

import ecgemm

m, k, n, method = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
torch.backends.cuda.matmul.allow_tf32 = False
a = torch.rand(m, k, device="cuda") - 0.5
b = torch.rand(k, n, device="cuda") - 0.5
if method not in ("cublas", "routed"):
    os.environ["ECGEMM_FAMILY"] = method
for _ in range(4):
    c = a @ b if method == "cublas" else ecgemm.matmul(a, b, mode="tf32tf32")
torch.cuda.synchronize()
if method != "cublas":
    print(ecgemm.explain(a, b, mode="tf32tf32"), file=sys.stderr)
