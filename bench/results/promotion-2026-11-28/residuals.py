"""Residuals of tf32tf32 and halfhalf on fused_mma's tiles (pinned, and as the planner routes them) against cuBLAS
SGEMM's (torch.matmul, TF32 off) on the same operands, over k from 24 to 2048 and C from thin to square, in three
kinds of data: urand(-1, 1), urand(0, 1) (positive: no cancellation) and urand(-1, 1) with rows of A and columns of B
scaled by 2^U(-12, 12) (componentwise error |C - C64| / (|A| |B|) reported beside the Frobenius one). Three seeds
a case. Run once with each build on PYTHONPATH; compare.py reads the files. One JSON line a (case, seed, data, mode).

    python residuals.py OUT.jsonl
"""
import json
import os
import sys

import torch

import ecgemm

torch.backends.cuda.matmul.allow_tf32 = False
KS = (24, 33, 39, 48, 64, 80, 96, 128, 192, 256, 512, 1024, 2048)
SIDES = ((186, 101), (695, 44), (28, 136), (10, 5505), (256, 256), (1000, 1000), (8, 1500))
PINS = {"planner": None, "mma32": "fused_mma:32", "mma64": "fused_mma:64"}


def operands(m, k, n, data, seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    lo = 0.0 if data == "positive" else -1.0
    a = torch.empty(m, k, device="cuda").uniform_(lo, 1.0, generator=g)
    b = torch.empty(k, n, device="cuda").uniform_(lo, 1.0, generator=g)
    if data == "scaled":
        a *= torch.exp2(torch.randint(-12, 13, (m, 1), device="cuda", generator=g).float())
        b *= torch.exp2(torch.randint(-12, 13, (1, n), device="cuda", generator=g).float())
    return a, b


def errors(c, ref, scale):
    d = (c.double() - ref).abs()
    return float(torch.linalg.norm(d) / torch.linalg.norm(ref)), float((d / scale).max())


def main(out):
    with open(out, "w") as f:
        for m, n in SIDES:
            for k in KS:
                for data in ("urand", "positive", "scaled"):
                    for seed in range(3):
                        a, b = operands(m, k, n, data, seed * 1000 + k)
                        ref = a.double() @ b.double()
                        scale = a.double().abs() @ b.double().abs()
                        c = torch.matmul(a, b)
                        row = {"m": m, "k": k, "n": n, "data": data, "seed": seed, "cublas": errors(c, ref, scale)}
                        for mode in ("tf32tf32", "halfhalf"):
                            for name, pin in PINS.items():
                                if pin:
                                    os.environ["ECGEMM_FAMILY"] = pin
                                else:
                                    os.environ.pop("ECGEMM_FAMILY", None)
                                c = torch.full((m, n), float("nan"), device="cuda")
                                ecgemm.matmul(a, b, mode=mode, out=c)
                                row[f"{mode}/{name}"] = {"route": ecgemm.explain(a, b, mode=mode),
                                                         "err": errors(c, ref, scale)}
                            os.environ.pop("ECGEMM_FAMILY", None)
                        f.write(json.dumps(row) + "\n")
                print(f"{m} x {n}: done", flush=True)


if __name__ == "__main__":
    main(sys.argv[1])
