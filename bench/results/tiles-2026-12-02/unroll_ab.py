"""fused_mma's 32-wide tile with its k-steps unrolled against rolled, on the same plans: the tree of call 4 had an
experiment switch (ECGEMM_EXP_UNROLL=0/1, not landed) under ECGEMM_FAMILY=fused_mma:32. Cases: every product of seed
26's sweep (walk-2026-12-01 call 2) that ran the 32-wide tile's products below 0.95x its peer (ring_cases.txt).
GPU time of back-to-back calls (bench.timing.gpu_ms, one operand set), rounds 1, 2, 2, 1; cuBLAS (torch.matmul /
torch.bmm, TF32 off) in the same process; both outputs compared bit for bit.

    python unroll_ab.py OUT.jsonl
"""
import json
import os
import pathlib
import sys

import torch

import ecgemm
from bench.timing import gpu_ms

HERE = pathlib.Path(__file__).parent


def operands(batch, m, k, n, op, g):
    lead = (batch,) if batch else ()
    a = torch.rand(*lead, k, m, device="cuda", generator=g).transpose(-1, -2) if op[0] == "T" else \
        torch.rand(*lead, m, k, device="cuda", generator=g)
    b = torch.rand(*lead, n, k, device="cuda", generator=g).transpose(-1, -2) if op[1] == "T" else \
        torch.rand(*lead, k, n, device="cuda", generator=g)
    return a * 2 - 1, b * 2 - 1


def main():
    torch.backends.cuda.matmul.allow_tf32 = False
    g = torch.Generator(device="cuda").manual_seed(4)
    cases = [tuple(int(x) if x.isdigit() else x for x in line.split()) for line in
             (HERE / "ring_cases.txt").read_text().splitlines() if line.strip()]
    os.environ["ECGEMM_FAMILY"] = "fused_mma:32"
    with open(sys.argv[1], "w") as f:
        for batch, m, k, n, op in cases:
            a, b = operands(batch, m, k, n, op, g)
            out = torch.empty(*((batch,) if batch else ()), m, n, device="cuda")
            peer = (lambda: torch.bmm(a, b, out=out)) if batch else (lambda: torch.matmul(a, b, out=out))
            t_peer = gpu_ms(torch, peer, batches=15, calls=10)
            ref = (a.double() @ b.double())
            for mode in ("tf32tf32", "halfhalf", "auto"):
                times, outs = {"0": [], "1": []}, {}
                for unroll in ("0", "1", "1", "0"):
                    os.environ["ECGEMM_EXP_UNROLL"] = unroll
                    call = lambda: ecgemm.matmul(a, b, out=out, mode=mode)  # noqa: E731
                    if unroll not in outs:
                        out.fill_(float("nan"))
                        call()
                        outs[unroll] = out.clone()
                    times[unroll].append(gpu_ms(torch, call, batches=10, calls=10))
                t1, t2 = sum(times["0"]) / 2, sum(times["1"]) / 2
                same = torch.equal(outs["0"], outs["1"])
                res = (torch.linalg.norm(outs["1"].double() - ref) / torch.linalg.norm(ref)).item()
                row = dict(batch=batch, m=m, k=k, n=n, op=op, mode=mode, cublas_ms=t_peer, rolled_ms=t1, unrolled_ms=t2,
                           rolled_rounds=times["0"], unrolled_rounds=times["1"], same_bits=same, residual=res,
                           plan=ecgemm.explain(a, b, mode=mode))
                f.write(json.dumps(row) + "\n")
                f.flush()
                print(f"b{batch} {m}x{k}x{n} {op} {mode:8s} cublas {t_peer*1e3:7.1f} rolled {t1*1e3:7.1f} unrolled {t2*1e3:7.1f} us "
                      f"unrolled/rolled x{t2/t1:5.3f} x_cublas {t_peer/t1:4.2f} -> {t_peer/t2:4.2f} same={same} {row['plan'][:70]}",
                      flush=True)
    os.environ.pop("ECGEMM_FAMILY")
    os.environ.pop("ECGEMM_EXP_UNROLL")


if __name__ == "__main__":
    main()
