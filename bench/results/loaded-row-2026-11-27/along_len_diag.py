"""Two held-out GEMV products the cost model priced at half their time (call 2, seed 26, tf32tf32): 1 x 975 x 11 and
1 x 4480 x 2398, both TN with B's rows padded (ldb 72 and 2448), on GEMV's along-the-long-side kernel. Each is timed
with the planner's route and with kernel families pinned, with B padded as in the sample and not, beside cuBLAS SGEMM
(GPU time of back-to-back calls, median of rounds), to see whether the kernel or the price is off.

    python along_len_diag.py
"""
import os
import sys

import torch

import ecgemm

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "narrow-tiles-2026-11-26"))
from narrow_ab import gpu_us  # noqa: E402

PINS = [None, "gemv", "gemv:wide", "simt", "fused_mma:32", "fused_mma/fp32"]
torch.backends.cuda.matmul.allow_tf32 = False
for m, k, n, pad_b in [(1, 975, 11, 61), (1, 975, 11, 0), (1, 4480, 2398, 50), (1, 4480, 2398, 0),
                       (1, 4480, 2400, 0)]:
    g = torch.Generator(device="cuda").manual_seed(k + n)
    a = (torch.rand(k, m, device="cuda", generator=g) * 2 - 1).t()  # TN: A stored k x m
    store = torch.full((k, n + pad_b), float("nan"), device="cuda")
    store[:, :n] = torch.rand(k, n, device="cuda", generator=g) * 2 - 1
    b = store[:, :n]
    c = torch.empty(m, n, device="cuda")
    print(f"{m} x {k} x {n}, ldb {n + pad_b}: cuBLAS {gpu_us(lambda: torch.matmul(a, b, out=c)):.1f} us")
    for pin in PINS:
        if pin:
            os.environ["ECGEMM_FAMILY"] = pin
        else:
            os.environ.pop("ECGEMM_FAMILY", None)
        try:
            route = ecgemm.explain(a, b, mode="tf32tf32").split(" workspace")[0]
            us = gpu_us(lambda: ecgemm.matmul(a, b, mode="tf32tf32", out=c))
            print(f"  {pin or 'planner'}: {us:.1f} us | {route}", flush=True)
        except Exception as e:  # a family that cannot run the product
            print(f"  {pin}: {type(e).__name__}: {str(e)[:100]}")
    os.environ.pop("ECGEMM_FAMILY", None)
