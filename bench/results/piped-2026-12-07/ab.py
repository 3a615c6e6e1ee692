"""simt's piped tiles on the sweep's misses (cases.txt: seed 26's products and batches below 0.95x cuBLAS in
tf32tf32, walk-2026-12-01 call 2): GPU time of back-to-back calls (bench.timing.gpu_ms, one operand set) of the
planner's route in tf32tf32, simt's old tile and each piped tile pinned, cuBLAS (torch.matmul / torch.bmm, TF32
off) in the same process; residuals against float64 for cuBLAS and each ecgemm route (single products).

    python ab.py CASES OUT.jsonl
"""
import json
import os
import sys

import torch

import ecgemm
from bench.timing import gpu_ms

TILES = os.environ.get("AB_TILES", "piped32x32,piped32x64,piped64x32,piped64x64").split(",")
PINS = [""] + ([] if os.environ.get("AB_NO_SIMT") else ["simt"]) + [f"simt:{t}" for t in TILES]


def operand(batch, rows, cols, trans, ld, g):
    """rows x cols, row-major with row stride ld (or its transpose stored so), as bench.random lays it out."""
    lead = (batch,) if batch else ()
    if trans:
        return torch.rand(*lead, cols, max(ld, rows), device="cuda", generator=g)[..., :rows].transpose(-1, -2) * 2 - 1
    return torch.rand(*lead, rows, max(ld, cols), device="cuda", generator=g)[..., :cols] * 2 - 1


def residual(c, ref):
    return float((c.double() - ref).norm() / ref.norm())


def main():
    torch.backends.cuda.matmul.allow_tf32 = False
    g = torch.Generator(device="cuda").manual_seed(2)
    cases = [line.split() for line in open(sys.argv[1]) if not line.startswith("#")]
    with open(sys.argv[2], "w") as f:
        for batch, m, k, n, op, lda, ldb in cases:
            batch, m, k, n, lda, ldb = (int(x) for x in (batch, m, k, n, lda, ldb))
            a = operand(batch, m, k, op[0] == "T", lda, g)
            b = operand(batch, k, n, op[1] == "T", ldb, g)
            out = torch.empty(*((batch,) if batch else ()), m, n, device="cuda")
            peer = (lambda: torch.bmm(a, b, out=out)) if batch else (lambda: torch.matmul(a, b, out=out))
            ref = None if batch else a.double() @ b.double()
            row = dict(batch=batch, m=m, k=k, n=n, op=op, lda=lda, ldb=ldb, routes={})
            row["cublas_ms"] = gpu_ms(torch, peer, batches=15, calls=10)
            peer()
            row["cublas_res"] = None if batch else residual(out, ref)
            for pin in PINS + [""]:  # the planner's route timed first and last
                if pin:
                    os.environ["ECGEMM_FAMILY"] = pin
                else:
                    os.environ.pop("ECGEMM_FAMILY", None)
                try:
                    plan = ecgemm.explain(a, b, mode="tf32tf32")
                except ecgemm.EcgemmError:  # a pinned family that cannot run the case
                    continue
                if pin.startswith("simt:") and f"tile={pin.split(':')[1]} " not in plan:
                    continue
                t = gpu_ms(torch, lambda: ecgemm.matmul(a, b, out=out, mode="tf32tf32"), batches=15, calls=10)
                key = pin or "planner"
                prev = row["routes"].get(key)
                if prev is None:
                    ecgemm.matmul(a, b, out=out, mode="tf32tf32")
                    res = None if batch else residual(out, ref)
                    row["routes"][key] = dict(ms=t, plan=plan, res=res)
                else:
                    prev["ms"] = min(prev["ms"], t)
            os.environ.pop("ECGEMM_FAMILY", None)
            f.write(json.dumps(row) + "\n")
            f.flush()
            r = row["routes"]
            piped = {p: v for p, v in r.items() if "piped" in p}
            best = min(piped.items(), key=lambda kv: kv[1]["ms"]) if piped else ("-", dict(ms=float("nan"), res=None))
            cres = row["cublas_res"]
            print(f"b{batch} {m}x{k}x{n} {op} cublas {row['cublas_ms']*1e3:7.1f}us planner x{row['cublas_ms']/r['planner']['ms']:.2f} "
                  f"simt x{row['cublas_ms']/r.get('simt', dict(ms=float('nan')))['ms']:.2f} "
                  + " ".join(f"{p[10:]}:{row['cublas_ms']/v['ms']:.2f}" for p, v in piped.items())
                  + f" | best {best[0][10:]} x{row['cublas_ms']/best[1]['ms']:.2f}"
                  + (f" res {best[1]['res']/cres:.2f}" if cres and best[1]['res'] else ""), flush=True)


if __name__ == "__main__":
    main()
