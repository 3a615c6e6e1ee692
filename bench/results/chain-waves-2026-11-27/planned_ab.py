"""The planner's own route (no pin) on a seeded random sample of products whose k is past the accuracy bound
(kMaxChainK = 4096) on a grid of fewer 128 x 128 tiles than SMs, where the corrected modes must split k: GPU time of
back-to-back calls (median of rounds), cuBLAS SGEMM's in the same process, and the residual against an FP64
product over cuBLAS's. For comparing two builds of the library (run once with each on PYTHONPATH;
../narrow-tiles-2026-11-26/ab_table.py compares the files). One JSON line a (product, mode).

    python planned_ab.py OUT.jsonl [SHAPES.txt]

SHAPES.txt ("op m k n" lines) limits it to those products (changed.py: the ones whose plan two builds differ on).
"""
import json
import math
import os
import random
import sys

SMS = 132


def sample(count, seed):
    """(op, m, k, n): m and n log-uniform over 1 … 16384 with fewer than SMS tiles of 128 x 128, k log-uniform
    over 4097 … 32768, each operand transposed with probability 1/2 (odd sides: leading dimensions off 16 bytes)."""
    rng = random.Random(seed)
    side = lambda lo, hi: int(math.exp(rng.uniform(math.log(lo), math.log(hi))))  # noqa: E731
    out = []
    while len(out) < count:
        m, n = side(1, 16384), side(1, 16384)
        if -(-m // 128) * -(-n // 128) >= SMS:
            continue
        out.append((rng.choice("NT") + rng.choice("NT"), m, side(4097, 32768), n))
    return out


def main(out, shapes=None):
    # Imported here so that changed.py can draw the sample without a GPU.
    import torch
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "narrow-tiles-2026-11-26"))
    from narrow_ab import gpu_us, operands, rel

    import ecgemm
    torch.backends.cuda.matmul.allow_tf32 = False
    os.environ.pop("ECGEMM_FAMILY", None)
    products = sample(400, 2711) if shapes is None else \
        [(op, int(m), int(k), int(n)) for op, m, k, n in (line.split() for line in open(shapes) if line.strip())]
    with open(out, "w") as f:
        for op, m, k, n in products:
            a, b = operands(op, m, k, n)
            ref = a.double() @ b.double()
            c = torch.empty(m, n, device="cuda")
            cublas = gpu_us(lambda: torch.matmul(a, b, out=c))
            res_cublas = rel(c, ref)
            for mode in ("tf32tf32", "halfhalf", "auto"):
                c.fill_(float("nan"))
                ecgemm.matmul(a, b, mode=mode, out=c)
                residual = rel(c, ref) / res_cublas
                us = gpu_us(lambda: ecgemm.matmul(a, b, mode=mode, out=c))
                row = {"op": op, "m": m, "k": k, "n": n, "mode": mode, "cublas_us": cublas, "us": us,
                       "x_cublas": cublas / us, "residual_ratio": residual, "route": ecgemm.explain(a, b, mode=mode)}
                print(f"{op} {m} x {k} x {n} {mode}: {us:.1f} us x{cublas / us:.2f} res {residual:.2f} | "
                      f"{row['route']}", flush=True)
                f.write(json.dumps(row) + "\n")
            del a, b, c, ref
            torch.cuda.empty_cache()


if __name__ == "__main__":
    main(*sys.argv[1:])
