"""ncu's view of simt's piped tiles against cuBLAS's SIMT kernel on three of call 1's misses (callP.sh): one call
each of torch.matmul (TF32 off) and ecgemm tf32tf32 with simt:piped64x32 and simt:piped32x64 pinned, NN packed."""
import os

import torch

import ecgemm

torch.backends.cuda.matmul.allow_tf32 = False
g = torch.Generator(device="cuda").manual_seed(3)
for m, k, n in ((5065, 144, 941), (757, 264, 185), (111, 8076, 228)):
    a = torch.rand(m, k, device="cuda", generator=g) * 2 - 1
    b = torch.rand(k, n, device="cuda", generator=g) * 2 - 1
    for _ in range(2):  # the second round is the one to read: the first may set up workspaces
        torch.matmul(a, b)
        for tile in ("piped64x32", "piped32x64"):
            os.environ["ECGEMM_FAMILY"] = f"simt:{tile}"
            ecgemm.matmul(a, b, mode="tf32tf32")
        os.environ.pop("ECGEMM_FAMILY")
    torch.cuda.synchronize()
