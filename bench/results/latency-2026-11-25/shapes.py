"""Calls each listed shape (m k n op) twice with ecgemm (mode from argv) and twice with cuBLAS SGEMM
(torch.mm, TF32 off), for a profiler to attribute kernel time (call1.sh runs it under ncu)."""
import sys

import torch

import ecgemm

SHAPES = [  # m, k, n, op: fused_mma misses of strips-2026-11-24 call 4 (seed 26), by split form
    (103, 28, 164, "TN"),    # one split, one stage
    (145, 156, 219, "TN"),   # 3 splits, cluster
    (5094, 72, 10, "NN"),    # 2 splits, cluster, 10 columns
    (41, 114, 3080, "NT"),   # 2 splits, cluster
    (314, 393, 210, "TN"),   # 7 splits, cluster
    (1352, 814, 12, "TT"),   # 13 splits through partials
    (93, 1106, 1, "TN"),     # 18 splits through partials, n = 1
    (8950, 276, 39, "TT"),   # 3 splits through partials
]


def operands(m, k, n, op):
    """op(A) (m x k) and op(B) (k x n) as bench.random makes them: row-major, a transposed one a .t() view."""
    g = torch.Generator(device="cuda").manual_seed(m * 7 + k * 13 + n)
    a = torch.rand((k, m) if op[0] == "T" else (m, k), device="cuda", generator=g) * 2 - 1
    b = torch.rand((n, k) if op[1] == "T" else (k, n), device="cuda", generator=g) * 2 - 1
    return (a.t() if op[0] == "T" else a), (b.t() if op[1] == "T" else b)


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else "tf32tf32"
    torch.backends.cuda.matmul.allow_tf32 = False
    for m, k, n, op in SHAPES:
        a, b = operands(m, k, n, op)
        c = torch.empty((m, n), device="cuda")
        for _ in range(2):
            ecgemm.matmul(a, b, out=c, mode=mode)
        for _ in range(2):
            torch.matmul(a, b, out=c)
        torch.cuda.synchronize()
        print(m, k, n, op, ecgemm.explain(a, b, mode=mode), flush=True)


if __name__ == "__main__":
    main()
