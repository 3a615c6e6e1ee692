"""A seeded random sample whose every side is a multiple of 8 (rows 16-byte aligned, so TMA addresses every
operand; bench.random's sample is mostly not), timed as gemv-2026-11-25/ab.py times (GPU time of back-to-back
calls, median of rounds) for cuBLAS (torch.matmul / torch.bmm, TF32 off) and ecgemm tf32tf32 and halfhalf on the
planner's route of the ecgemm on PYTHONPATH, with each output's residual against FP64:

    python aligned_ab.py SEED COUNT BATCHED OUT.json

2-D: m, k, n log-uniform over 8 ... 16384 (rounded to multiples of 8), each operand transposed with probability
1/2; batches: count log-uniform over 1 ... 4096, sides over 8 ... 512. Draws above 2^37 multiply-adds are redrawn.
"""
import importlib.util
import json
import math
import pathlib
import random
import sys

import torch

import ecgemm

spec = importlib.util.spec_from_file_location(
    "ab", pathlib.Path(__file__).resolve().parent.parent / "gemv-2026-11-25" / "ab.py")
ab = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ab)
MAX_MACS = 2 ** 37


def side(rng, lo, hi):
    return max(8, round(math.exp(rng.uniform(math.log(lo), math.log(hi))) / 8) * 8)


def draws(seed, count, batched):
    rng = random.Random(seed)
    while count or batched:
        if count:
            m, k, n = (side(rng, 8, 16384) for _ in range(3))
            if m * k * n <= MAX_MACS:
                count -= 1
                yield 1, m, k, n, rng.random() < 0.5, rng.random() < 0.5
        else:
            b = max(1, round(math.exp(rng.uniform(0, math.log(4096)))))
            m, k, n = (side(rng, 8, 512) for _ in range(3))
            if b * m * k * n <= MAX_MACS:
                batched -= 1
                yield b, m, k, n, False, False


def main():
    seed, count, batched, out = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    torch.backends.cuda.matmul.allow_tf32 = False
    rows = []
    for i, (b, m, k, n, ta, tb) in enumerate(draws(seed, count, batched)):
        g = torch.Generator(device="cuda").manual_seed(i)
        if b == 1:
            a = torch.rand((k, m) if ta else (m, k), device="cuda", generator=g) * 2 - 1
            w = torch.rand((n, k) if tb else (k, n), device="cuda", generator=g) * 2 - 1
            a, w = (a.t() if ta else a), (w.t() if tb else w)
            out_t = torch.empty((m, n), device="cuda")
            peer = lambda: torch.matmul(a, w, out=out_t)  # noqa: E731
        else:
            a = torch.rand((b, m, k), device="cuda", generator=g) * 2 - 1
            w = torch.rand((b, k, n), device="cuda", generator=g) * 2 - 1
            out_t = torch.empty((b, m, n), device="cuda")
            peer = lambda: torch.bmm(a, w, out=out_t)  # noqa: E731
        ref = torch.matmul(a.double(), w.double())
        row = {"batch": b, "m": m, "k": k, "n": n, "op": ("T" if ta else "N") + ("T" if tb else "N"),
               "methods": {"cublas": {"us": ab.gpu_us(peer)}}}
        row["methods"]["cublas"]["residual"] = ab.residual(out_t, ref)
        for mode in ("tf32tf32", "halfhalf"):
            call = lambda: ecgemm.matmul(a, w, out=out_t, mode=mode)  # noqa: E731
            out_t.fill_(float("nan"))
            us = ab.gpu_us(call)
            row["methods"][mode] = {"us": us, "residual": ab.residual(out_t, ref),
                                    "route": ecgemm.explain(a, w, mode=mode)}
        rows.append(row)
        c = row["methods"]["cublas"]["us"]
        print(f"{b:5d} x {m:6d} {k:6d} {n:6d} {row['op']} cublas {c:8.2f}us " + " ".join(
            f"{mo}: {row['methods'][mo]['us']:8.2f} ({c / row['methods'][mo]['us']:.2f}x) "
            f"{row['methods'][mo]['route'].split()[0]}" for mo in ("tf32tf32", "halfhalf")), flush=True)
    json.dump({"device": torch.cuda.get_device_name(), "seed": seed, "rows": rows}, open(out, "w"), indent=1)


if __name__ == "__main__":
    main()
