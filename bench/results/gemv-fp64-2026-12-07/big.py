"""GEMV products that stream DRAM (or L2), where FP64 sums could cost time if anything does: GPU time of
back-to-back calls (bench.timing.gpu_ms) of ecgemm's route in tf32tf32 and of cuBLAS (torch.matmul / torch.bmm,
TF32 off) in the same process; residuals against float64. Run once per build (the baseline's, then the tree's).

    python big.py OUT.jsonl [--pinned]

--pinned (call H) adds PINNED: the kernels the planner gives other shapes to, pinned (ECGEMM_FAMILY, read per call);
call J adds the FP32 form's multi-wave grids at k = 24-32 and a batch.
"""
import json
import os
import sys

import torch

import ecgemm
from bench.timing import gpu_ms

# (batch, m, k, n, op): both kernels (k contiguous: op(A) transposed for m >= n), widths 1-4, split and unsplit,
# the lines kernel (17 <= k <= 256) on many lines and on batches, the short-k kernel.
CASES = [
    (0, 16384, 16384, 1, "NN"), (0, 16384, 16384, 1, "TN"), (0, 1, 16384, 16384, "NN"), (0, 1, 16384, 16384, "NT"),
    (0, 16384, 16384, 2, "TN"), (0, 16384, 16384, 3, "TN"), (0, 16384, 16384, 4, "TN"),
    (0, 16384, 16384, 2, "NN"), (0, 16384, 16384, 3, "NN"), (0, 16384, 16384, 4, "NN"),
    (0, 4096, 4096, 1, "TN"), (0, 4096, 4096, 4, "TN"), (0, 4096, 4096, 1, "NN"), (0, 4096, 4096, 4, "NN"),
    (0, 1, 4096, 4096, "NN"), (0, 2, 4096, 4096, "NN"), (0, 1, 65536, 1024, "NN"), (0, 1, 1024, 65536, "NN"),
    (0, 262144, 200, 1, "TN"), (0, 262144, 200, 3, "TN"), (0, 262144, 200, 4, "TN"), (0, 262144, 64, 4, "TN"),
    (0, 1048576, 12, 1, "NN"), (0, 1048576, 12, 4, "NN"), (0, 1048576, 12, 4, "TN"),
    (12999, 312, 196, 1, "NN"), (5000, 128, 100, 4, "NN"), (5000, 128, 100, 4, "TN"), (8192, 256, 16, 2, "NN"),
]

# (batch, m, k, n, op, pin): along k with a thin side of 2-4, staged (B as stored, "NN") and loaded ("NT": each thin
# column contiguous along k), split and unsplit; the lines kernel at 3-4 thin columns on one product; fused_mma's FP32
# form.
PINNED = [
    (0, 16384, 16384, w, op, "gemv") for w in (2, 3, 4) for op in ("NN", "NT")
] + [
    (0, 4096, 4096, w, op, "gemv") for w in (2, 4) for op in ("NN", "NT")
] + [
    (0, 262144, 100, w, "NN", "gemv:lines") for w in (2, 3, 4)
] + [(2000, 128, 100, 3, "NN", "gemv:lines")] + [
    # fused_mma's FP32 form (fp32_form_fp64.patch: FP64 sums at k <= 16 or in one wave): C-bound grids at k 8-16 (its
    # FP64 FMAs' worst case), k = 17 (FP32 chains), and one-wave grids at k near 32.
    (0, 8192, k, 8192, "NN", "fused_mma/fp32") for k in (8, 16, 17, 24, 32)
] + [(0, 2000, 32, 1500, "NN", "fused_mma/fp32"), (0, 2000, 16, 1500, "TT", "fused_mma/fp32"),
     (300, 100, 24, 100, "NN", "fused_mma/fp32")] + [(0, 591, 32, 259, "NN", "fused_mma/fp32"), (0, 7298, 30, 9, "TN", "fused_mma/fp32"),
     (700, 45, 9, 20, "NN", "fused_mma/fp32")]


def operand(batch, rows, cols, trans, g):
    lead = (batch,) if batch else ()
    x = torch.rand(*lead, cols, rows, device="cuda", generator=g).transpose(-1, -2) if trans else \
        torch.rand(*lead, rows, cols, device="cuda", generator=g)
    return x * 2 - 1


def main():
    torch.backends.cuda.matmul.allow_tf32 = False
    g = torch.Generator(device="cuda").manual_seed(5)
    with open(sys.argv[1], "w") as f:
        cases = [c + ("",) for c in CASES] + (PINNED if "--pinned" in sys.argv else [])
        for batch, m, k, n, op, pin in cases:
            if pin:
                os.environ["ECGEMM_FAMILY"] = pin
            else:
                os.environ.pop("ECGEMM_FAMILY", None)
            a, b = operand(batch, m, k, op[0] == "T", g), operand(batch, k, n, op[1] == "T", g)
            out = torch.empty(*((batch,) if batch else ()), m, n, device="cuda")
            peer = (lambda: torch.bmm(a, b, out=out)) if batch else (lambda: torch.matmul(a, b, out=out))
            ours = lambda: ecgemm.matmul(a, b, out=out, mode="tf32tf32")  # noqa: E731
            row = dict(batch=batch, m=m, k=k, n=n, op=op, pin=pin, route=ecgemm.explain(a, b, mode="tf32tf32"))
            row["cublas_ms"] = gpu_ms(torch, peer, batches=15, calls=10)
            row["ms"] = gpu_ms(torch, ours, batches=15, calls=10)
            ref = a.double() @ b.double()
            for name, call in (("cublas_res", peer), ("res", ours)):
                call()
                row[name] = float((out.double() - ref).norm() / ref.norm())
            gb = 4 * (a.numel() + b.numel() + out.numel()) / 1e9
            row["gbps"] = gb / (row["ms"] / 1e3)
            f.write(json.dumps(row) + "\n")
            f.flush()
            print(f"b{batch} {m}x{k}x{n} {op}{' ' + pin if pin else ''}: {row['ms'] * 1e3:8.1f} us ({row['gbps']:6.0f} GB/s) x cuBLAS "
                  f"{row['cublas_ms'] / row['ms']:.2f}, residual {row['res']:.2e} / {row['cublas_res']:.2e} | "
                  f"{row['route'][:70]}", flush=True)


if __name__ == "__main__":
    main()
