"""Residual of one unsplit chain (ECGEMM_FAMILY=fused_mma:<tile>/unsplit: the whole k added to each output's one
accumulator, up to kMaxChainK) over cuBLAS SGEMM's (torch.matmul, TF32 off) on the same operands, for k from 64 to
4096, on urand(-1, 1), urand(0, 1) and rows/columns scaled by 2^U(-12, 12) (residuals.py's operands of
promotion-2026-11-28), three seeds. Where the promotion is not compensated the chain's k/8 FP32 adds show as an error
that grows with k. One JSON line a (case, seed, data); a table by tile, mode and k on stdout.

    python chain.py OUT.jsonl
"""
import json
import os
import pathlib
import sys

import torch

import ecgemm

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "promotion-2026-11-28"))
from residuals import errors, operands  # noqa: E402

torch.backends.cuda.matmul.allow_tf32 = False
KS = (64, 128, 256, 512, 1024, 2048, 4096)
SIDES = ((96, 80), (256, 256), (10, 1000))


def main(out):
    table = {}
    with open(out, "w") as f:
        for m, n in SIDES:
            for k in KS:
                for data in ("urand", "positive", "scaled"):
                    for seed in range(3):
                        a, b = operands(m, k, n, data, seed * 1000 + k)
                        ref = a.double() @ b.double()
                        scale = a.double().abs() @ b.double().abs()
                        row = {"m": m, "k": k, "n": n, "data": data, "seed": seed,
                               "cublas": errors(torch.matmul(a, b), ref, scale)}
                        for mode in ("tf32tf32", "halfhalf"):
                            for tile in (32, 64):
                                os.environ["ECGEMM_FAMILY"] = f"fused_mma:{tile}/unsplit"
                                c = torch.full((m, n), float("nan"), device="cuda")
                                ecgemm.matmul(a, b, mode=mode, out=c)
                                err = errors(c, ref, scale)
                                row[f"{mode}/{tile}"] = err
                                table.setdefault((mode, tile, data, k), []).append(err[0] / row["cublas"][0])
                        os.environ.pop("ECGEMM_FAMILY", None)
                        f.write(json.dumps(row) + "\n")
    print("| mode | tile | data | " + " | ".join(f"k={k}" for k in KS) + " |")
    print("|---|---|---|" + "---|" * len(KS))
    for mode in ("tf32tf32", "halfhalf"):
        for tile in (32, 64):
            for data in ("urand", "positive", "scaled"):
                cells = [f"{max(table[mode, tile, data, k]):.2f}" for k in KS]
                print(f"| {mode} | {tile} | {data} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main(sys.argv[1])
