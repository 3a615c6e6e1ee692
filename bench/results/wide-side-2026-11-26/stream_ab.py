"""simt's stream tile (k <= 32) pinned, against cuBLAS SGEMM in the same process, on the held-out sample's
stream-tile products (and a few at other k) with C's rows not a multiple of 4 floats (every column but one in four off a 16-byte
boundary) and the same products with n rounded up to a multiple of 4 (every column aligned): GPU time of
back-to-back calls, median of rounds. One JSON line a product.

    python stream_ab.py OUT.jsonl
"""
import json
import os
import sys

import torch

os.environ["ECGEMM_FAMILY"] = "simt"
import ecgemm  # noqa: E402

torch.backends.cuda.matmul.allow_tf32 = False
# (op, m, k, n) from bench/results/ring-2026-11-26/call10 (seed 26), the stream tile's misses and a few more.
SHAPES = [("TN", 2929, 1, 5595), ("TN", 11106, 1, 1601), ("NN", 3950, 8, 3687), ("NT", 4447, 32, 1231),
          ("NT", 3506, 18, 2803), ("NT", 849, 6, 3971), ("TT", 7913, 17, 467), ("TN", 6487, 1, 7949),
          ("NT", 14759, 1, 14753), ("TN", 2929, 2, 5595), ("TN", 2929, 4, 5595), ("TN", 2929, 8, 5595),
          ("TN", 2929, 16, 5595), ("TN", 6487, 2, 7949), ("TN", 6487, 4, 7949), ("TN", 6487, 8, 7949)]


def operands(op, m, k, n):
    g = torch.Generator(device="cuda").manual_seed(m + k + n)
    a = torch.rand(k, m, device="cuda", generator=g).T if op[0] == "T" else torch.rand(m, k, device="cuda", generator=g)
    b = torch.rand(n, k, device="cuda", generator=g).T if op[1] == "T" else torch.rand(k, n, device="cuda", generator=g)
    return a, b


def gpu_us(fn, calls=30, rounds=9):
    fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(rounds):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(calls):
            fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) * 1e3 / calls)
    return sorted(times)[len(times) // 2]


def main(out):
    with open(out, "w") as f:
        for op, m, k, n0 in SHAPES:
            for n in (n0, (n0 + 3) // 4 * 4):
                a, b = operands(op, m, k, n)
                c = torch.empty(m, n, device="cuda")
                cublas = gpu_us(lambda: torch.matmul(a, b, out=c))
                ours = gpu_us(lambda: ecgemm.matmul(a, b, mode="tf32tf32", out=c))
                row = {"op": op, "m": m, "k": k, "n": n, "route": ecgemm.explain(a, b, mode="tf32tf32"),
                       "cublas_us": cublas, "ecgemm_us": ours, "x_cublas": cublas / ours}
                print(f"{op} {m} x {k} x {n}: cuBLAS {cublas:.1f} us, ecgemm {ours:.1f} us, x {cublas / ours:.2f}")
                f.write(json.dumps(row) + "\n")


if __name__ == "__main__":
    main(sys.argv[1])
