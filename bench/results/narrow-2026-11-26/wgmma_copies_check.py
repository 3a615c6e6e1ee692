"""fused_wgmma pinned on operands TMA cannot address (odd leading dimensions, a 4-byte offset), both tile shapes
(one consumer and the swap, two consumers), every layout, ragged edges, k tails, split-K and a strided batch, in
tf32tf32 and halfhalf: the transform threads' cp.async copies, for compute-sanitizer (memcheck, racecheck).
Each output against an FP64 product (relative Frobenius residual below 1e-6); exits 1 on a miss."""
import os
import sys

import torch

import ecgemm

os.environ["ECGEMM_FAMILY"] = "fused_wgmma"
CASES = [(130, 257, 300), (40, 300, 700), (700, 300, 40), (1, 513, 700), (257, 64 * 37 + 5, 129)]


def unaligned(rows, cols):
    """rows x cols, leading dimension cols + 3, 4 bytes into its buffer."""
    store = torch.rand(rows * (cols + 3) + 1, device="cuda") * 2 - 1
    return store[1:].view(rows, cols + 3)[:, :cols]


def check(label, got, ref):
    res = float(torch.linalg.norm(got.double() - ref) / torch.linalg.norm(ref))
    ok = bool(torch.isfinite(got).all()) and res < 1e-6
    print(f"{label}: residual {res:.2e} {'ok' if ok else 'MISS'}", flush=True)
    return not ok


misses = 0
for mode in ("tf32tf32", "halfhalf"):
    for m, k, n in CASES:
        for op in ("NN", "NT", "TN", "TT"):
            a = unaligned(k, m).t() if op[0] == "T" else unaligned(m, k)
            b = unaligned(n, k).t() if op[1] == "T" else unaligned(k, n)
            c = torch.full((m, n), float("nan"), device="cuda")
            ecgemm.matmul(a, b, out=c, mode=mode)
            misses += check(f"{mode} {m}x{k}x{n} {op}", c, a.double() @ b.double())
    x, y = unaligned(5 * 33, 127).view(5, 33, 127), unaligned(5 * 127, 35).view(5, 127, 35)
    misses += check(f"{mode} batch 5 x (33 x 127 x 35)", ecgemm.matmul(x, y, mode=mode),
                    torch.bmm(x.double(), y.double()))
print(f"{misses} misses")
sys.exit(1 if misses else 0)
