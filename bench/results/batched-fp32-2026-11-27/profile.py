"""Batches of small products at k <= 32 that the random sample ran below 0.95x torch.bmm on FP32 routes (simt's
stream, strip and dot tiles, fused_mma's FP32 form): GPU time of ecgemm and torch.bmm (TF32 off) on the same contiguous
operands, back-to-back calls timed by CUDA events, and each plan. `--one I`: only case I, a few calls (for ncu).

    python profile.py [--one I]
"""
import argparse

import torch

import ecgemm

# batch, m, k, n (torch's row-major products)
CASES = [(2505, 207, 1, 43), (5535, 192, 8, 15), (11770, 1, 4, 12), (9777, 15, 16, 286), (2877, 358, 4, 31),
         (5051, 23, 1, 177), (2333, 194, 23, 13), (1459, 144, 8, 13), (9168, 28, 3, 21), (4159, 234, 5, 11)]


def gpu_us(fn, reps=50):
    fn()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    best = float("inf")
    for _ in range(5):
        start.record()
        for _ in range(reps):
            fn()
        end.record()
        end.synchronize()
        best = min(best, start.elapsed_time(end) * 1e3 / reps)
    return best


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--one", type=int, default=None)
    args = p.parse_args()
    torch.backends.cuda.matmul.allow_tf32 = False
    for i, (batch, m, k, n) in enumerate(CASES):
        if args.one is not None and i != args.one:
            continue
        g = torch.Generator(device="cuda").manual_seed(i)
        a = torch.rand(batch, m, k, device="cuda", generator=g) * 2 - 1
        b = torch.rand(batch, k, n, device="cuda", generator=g) * 2 - 1
        out = torch.empty(batch, m, n, device="cuda")
        if args.one is not None:
            for _ in range(3):
                ecgemm.matmul(a, b, out=out, mode="tf32tf32")
            torch.cuda.synchronize()
            return
        ours = gpu_us(lambda: ecgemm.matmul(a, b, out=out, mode="tf32tf32"))
        peer = gpu_us(lambda: torch.bmm(a, b, out=out))
        mb = 4 * batch * (m * k + k * n + m * n) / 1e6
        print(f"{batch} x {m}x{k}x{n}: ecgemm {ours:.1f} us, torch.bmm {peer:.1f} us, x {peer / ours:.2f}; "
              f"{mb:.1f} MB, DRAM floor at 3.0 TB/s {mb / 3.0:.1f} us; {ecgemm.explain(a, b, mode='tf32tf32')}")


if __name__ == "__main__":
    main()
