"""The corrected modes' residual at 32 < k <= 80 (issue 25's accuracy class): on call 2's sweep (seed 26) the products
with C of at least 10^4 elements in that k range, tf32tf32's planned route against simt (FP32, two-level: SGEMM-class
at any k) and fused_mma's 32-wide tile pinned, and cuBLAS SGEMM, on probe.py's operands and timing: whether an FP32
route keeps both gates (>= 0.95x cuBLAS, residual <= cuBLAS's) where the products miss the second. One JSON line a
product.

    python k64_probe.py OUT.jsonl
"""
import gzip
import json
import os
import sys

import torch

from probe import HERE, gpu_us, operand, rel

import ecgemm  # noqa: E402

SWEEP = HERE / "call2" / "random-26" / "results.json.gz"
PINS = {"planner": None, "simt": "simt", "mma32": "fused_mma:32"}


def selected():
    for case in json.load(gzip.open(SWEEP))["gemm"]:
        if 32 < case["k"] <= 80 and case["m"] * case["n"] >= 10_000:
            yield case["op"], case["m"], case["k"], case["n"], case["pad_a"], case["pad_b"]


def main(out):
    with open(out, "w") as f:
        for op, m, k, n, pad_a, pad_b in selected():
            ta, tb = op[0] == "T", op[1] == "T"
            a = operand(*((k, m) if ta else (m, k)), pad_a, ta, m * 7 + k)
            b = operand(*((n, k) if tb else (k, n)), pad_b, tb, n * 11 + k)
            ref = a.double() @ b.double()
            c = torch.empty(m, n, device="cuda")
            cublas = gpu_us(lambda: torch.matmul(a, b, out=c))
            res_cublas = rel(c, ref)
            row = {"op": op, "m": m, "k": k, "n": n, "cublas_us": cublas, "cublas_residual": res_cublas}
            for name, pin in PINS.items():
                if pin:
                    os.environ["ECGEMM_FAMILY"] = pin
                else:
                    os.environ.pop("ECGEMM_FAMILY", None)
                c.fill_(float("nan"))
                us = gpu_us(lambda: ecgemm.matmul(a, b, mode="tf32tf32", out=c))
                row[name] = {"route": ecgemm.explain(a, b, mode="tf32tf32"), "us": us, "x_cublas": cublas / us,
                             "residual_ratio": rel(c, ref) / res_cublas}
            os.environ.pop("ECGEMM_FAMILY", None)
            print(f"{op} {m} x {k} x {n}: cuBLAS {cublas:.1f} us; " + "; ".join(
                f"{name} x{row[name]['x_cublas']:.2f} res {row[name]['residual_ratio']:.2f}" for name in PINS), flush=True)
            f.write(json.dumps(row) + "\n")


if __name__ == "__main__":
    main(sys.argv[1])
