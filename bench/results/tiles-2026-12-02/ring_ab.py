"""Two FP32 stages in flight in fused_mma's 32-wide tile against one, on the same plans: the tree of call 2 had an
experiment switch (ECGEMM_EXP_RING=1/2, not landed) under ECGEMM_FAMILY=fused_mma:32. Cases: every product of seed
26's sweep (walk-2026-12-01 call 2) that ran the 32-wide tile's products below 0.95x its peer (ring_cases.txt).
GPU time of back-to-back calls (bench.timing.gpu_ms, one operand set), rounds 1, 2, 2, 1; cuBLAS (torch.matmul /
torch.bmm, TF32 off) in the same process; both outputs compared bit for bit.

    python ring_ab.py OUT.jsonl
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
            for mode in ("tf32tf32", "halfhalf"):
                times, outs = {"1": [], "2": []}, {}
                for ring in ("1", "2", "2", "1"):
                    os.environ["ECGEMM_EXP_RING"] = ring
                    call = lambda: ecgemm.matmul(a, b, out=out, mode=mode)  # noqa: E731
                    if ring not in outs:
                        out.fill_(float("nan"))
                        call()
                        outs[ring] = out.clone()
                    times[ring].append(gpu_ms(torch, call, batches=15, calls=10))
                t1, t2 = sum(times["1"]) / 2, sum(times["2"]) / 2
                same = torch.equal(outs["1"], outs["2"])
                res = (torch.linalg.norm(outs["2"].double() - ref) / torch.linalg.norm(ref)).item()
                row = dict(batch=batch, m=m, k=k, n=n, op=op, mode=mode, cublas_ms=t_peer, one_ms=t1, two_ms=t2,
                           one_rounds=times["1"], two_rounds=times["2"], same_bits=same, residual=res,
                           plan=ecgemm.explain(a, b, mode=mode))
                f.write(json.dumps(row) + "\n")
                f.flush()
                print(f"b{batch} {m}x{k}x{n} {op} {mode:8s} cublas {t_peer*1e3:7.1f} one {t1*1e3:7.1f} two {t2*1e3:7.1f} us "
                      f"two/one x{t2/t1:5.3f} x_cublas {t_peer/t1:4.2f} -> {t_peer/t2:4.2f} same={same} {row['plan'][:70]}",
                      flush=True)
    os.environ.pop("ECGEMM_FAMILY")
    os.environ.pop("ECGEMM_EXP_RING")


if __name__ == "__main__":
    main()
