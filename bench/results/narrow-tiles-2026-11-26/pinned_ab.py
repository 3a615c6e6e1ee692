"""One family pinned (default fused_wgmma:narrow) on narrow_ab.py's products, in tf32tf32 and halfhalf: GPU time of
back-to-back calls (median of rounds) and cuBLAS's in the same process, for comparing two builds of the library
(run once with each on PYTHONPATH). One JSON line a (product, mode).

    python pinned_ab.py OUT.jsonl [FAMILY]
"""
import json
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from narrow_ab import SHAPES, gpu_us, operands  # noqa: E402

import ecgemm  # noqa: E402


def main(out, family):
    os.environ["ECGEMM_FAMILY"] = family
    torch.backends.cuda.matmul.allow_tf32 = False
    with open(out, "w") as f:
        for op, m, k, n in SHAPES:
            a, b = operands(op, m, k, n)
            a, b = (a.T.contiguous().T if op[0] == "T" else a.contiguous()), (b.T.contiguous().T if op[1] == "T" else b.contiguous())
            c = torch.empty(m, n, device="cuda")
            cublas = gpu_us(lambda: torch.matmul(a, b, out=c))
            for mode in ("tf32tf32", "halfhalf"):
                us = gpu_us(lambda: ecgemm.matmul(a, b, mode=mode, out=c))
                row = {"op": op, "m": m, "k": k, "n": n, "mode": mode, "family": family, "cublas_us": cublas, "us": us,
                       "x_cublas": cublas / us, "route": ecgemm.explain(a, b, mode=mode)}
                print(f"{op} {m} x {k} x {n} {mode}: {us:.1f} us x{cublas / us:.2f} | {row['route']}", flush=True)
                f.write(json.dumps(row) + "\n")
            del a, b, c
            torch.cuda.empty_cache()


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "fused_wgmma:narrow")
