"""One fused_wgmma form pinned on products whose operands are laid out as torch lays out a transposed or plain
tensor (odd sides: leading dimensions off 16 bytes), tf32tf32 and halfhalf: GPU time of back-to-back calls (median of
rounds) and cuBLAS SGEMM's in the same process, for comparing two builds of the library (run once with each on
PYTHONPATH; ../narrow-tiles-2026-11-26/ab_table.py compares the files). One JSON line a (product, mode).

    python pinned_ab.py OUT.jsonl narrow|wide|pairs
"""
import json
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "narrow-tiles-2026-11-26"))
from narrow_ab import SHAPES as NARROW, gpu_us, operands  # noqa: E402

import ecgemm  # noqa: E402

# The wide tiles (128 x 128; 64 x 128 where a side is at most 64): odd sides, and two aligned products (the TMA
# kernel, which this change must leave as it was).
WIDE = [("NN", 4095, 4097, 4093), ("TN", 2049, 3001, 1999), ("NT", 8191, 1023, 777), ("TT", 3001, 2047, 5003),
        ("NN", 50, 3001, 7001), ("TN", 7001, 1999, 61), ("NN", 4096, 4096, 4096), ("TN", 2048, 3072, 1024)]
# Unaligned products beside aligned ones of about the same shape (call 8's variants).
PAIRS = [("TN", 14626, 3729, 22), ("TN", 14624, 3728, 24), ("NT", 7706, 12030, 60), ("NT", 7704, 12032, 60),
         ("TT", 13, 8182, 13147), ("TT", 16, 8184, 13148), ("NN", 9378, 5397, 30), ("NN", 9376, 5396, 32)]
FORMS = {"narrow": ("fused_wgmma:narrow", NARROW), "wide": ("fused_wgmma", WIDE),
         "pairs": ("fused_wgmma:narrow", PAIRS)}


def main(out, form):
    family, shapes = FORMS[form]
    os.environ["ECGEMM_FAMILY"] = family
    torch.backends.cuda.matmul.allow_tf32 = False
    with open(out, "w") as f:
        for op, m, k, n in shapes:
            a, b = operands(op, m, k, n)
            c = torch.empty(m, n, device="cuda")
            cublas = gpu_us(lambda: torch.matmul(a, b, out=c))
            for mode in ("tf32tf32", "halfhalf"):
                us = gpu_us(lambda: ecgemm.matmul(a, b, mode=mode, out=c))
                row = {"op": op, "m": m, "k": k, "n": n, "mode": mode, "family": family, "cublas_us": cublas,
                       "us": us, "x_cublas": cublas / us, "route": ecgemm.explain(a, b, mode=mode)}
                print(f"{op} {m} x {k} x {n} {mode}: {us:.1f} us x{cublas / us:.2f} | {row['route']}", flush=True)
                f.write(json.dumps(row) + "\n")
            del a, b, c
            torch.cuda.empty_cache()


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
