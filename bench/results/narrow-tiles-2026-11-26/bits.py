"""SHA-256 of ecgemm's output on narrow_ab.py's products (and a few small ones) with one family pinned, tf32tf32 and
halfhalf, one line a product: run with two builds of the library on PYTHONPATH and compare the files.

    python bits.py OUT.txt [FAMILY]
"""
import hashlib
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from narrow_ab import SHAPES, operands  # noqa: E402

import ecgemm  # noqa: E402

SMALL = [("NN", 300, 257, 17), ("TT", 9, 700, 1000), ("NT", 1000, 64 * 37 + 5, 40), ("TN", 130, 40, 33)]


def main(out, family):
    os.environ["ECGEMM_FAMILY"] = family
    with open(out, "w") as f:
        for op, m, k, n in SMALL + SHAPES[:12]:
            a, b = operands(op, m, k, n)
            for mode in ("tf32tf32", "halfhalf"):
                c = ecgemm.matmul(a, b, mode=mode)
                digest = hashlib.sha256(c.contiguous().cpu().numpy().tobytes()).hexdigest()[:16]
                f.write(f"{op} {m} {k} {n} {mode} {digest} {ecgemm.explain(a, b, mode=mode)}\n")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "fused_wgmma:narrow")
