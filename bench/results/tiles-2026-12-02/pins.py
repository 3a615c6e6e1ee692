"""Every family pinned on the sweep's slowest small products (walk-2026-12-01 call 2, seed 26): is a
faster route there that the planner passed over, or is every route slow? GPU time of back-to-back calls
(bench.timing.gpu_ms, one operand set), cuBLAS (torch.matmul / torch.bmm, TF32 off) in the same process,
rounds: the planner's choice, each pin, the planner's choice again.

    python pins.py OUT.jsonl
"""
import json
import os
import sys

import torch

import ecgemm
from bench.timing import gpu_ms

# (batch or 0, m, k, n, op): seed 26's misses, the batched ones from its 200 and the 2-D ones from its 1018.
CASES = [
    (4399, 24, 103, 445, "NN"), (7162, 187, 438, 28, "NN"), (525, 17, 501, 162, "NN"), (1652, 43, 225, 11, "NN"),
    (7503, 59, 132, 16, "NN"), (7605, 169, 104, 26, "NN"), (1251, 23, 250, 207, "NN"), (801, 26, 314, 127, "NN"),
    (5023, 6, 63, 46, "NN"),
    (0, 10, 40, 5505, "NN"), (0, 1371, 124, 358, "TN"), (0, 132, 202, 3930, "TN"), (0, 7605, 117, 72, "NN"),
    (0, 6693, 99, 147, "NN"), (0, 4034, 133, 34, "TT"), (0, 1914, 35, 536, "NT"), (0, 1, 4173, 353, "TN"),
    (0, 73, 172, 6334, "NN"), (0, 548, 135, 1000, "TT"), (0, 3707, 254, 91, "TN"),
]
PINS = ["", "fused_mma:32", "fused_mma:64", "simt", "fused_wgmma", "planes", "gemv"]


def operands(batch, m, k, n, op, g):
    lead = (batch,) if batch else ()
    a = torch.rand(*lead, k, m, device="cuda", generator=g).transpose(-1, -2) if op[0] == "T" else \
        torch.rand(*lead, m, k, device="cuda", generator=g)
    b = torch.rand(*lead, n, k, device="cuda", generator=g).transpose(-1, -2) if op[1] == "T" else \
        torch.rand(*lead, k, n, device="cuda", generator=g)
    return a * 2 - 1, b * 2 - 1


def main():
    torch.backends.cuda.matmul.allow_tf32 = False
    g = torch.Generator(device="cuda").manual_seed(2)
    with open(sys.argv[1], "w") as f:
        for batch, m, k, n, op in CASES:
            a, b = operands(batch, m, k, n, op, g)
            out = torch.empty(*((batch,) if batch else ()), m, n, device="cuda")
            peer = (lambda: torch.bmm(a, b, out=out)) if batch else (lambda: torch.matmul(a, b, out=out))
            t_peer = gpu_ms(torch, peer, batches=15, calls=10)
            for mode in ("tf32tf32", "halfhalf"):
                row = dict(batch=batch, m=m, k=k, n=n, op=op, mode=mode, cublas_ms=t_peer, pins={})
                for pin in PINS + [""]:
                    if pin:
                        os.environ["ECGEMM_FAMILY"] = pin
                    else:
                        os.environ.pop("ECGEMM_FAMILY", None)
                    t = gpu_ms(torch, lambda: ecgemm.matmul(a, b, out=out, mode=mode), batches=15, calls=10)
                    plan = ecgemm.explain(a, b, mode=mode)
                    key = pin or "planner"
                    prev = row["pins"].get(key)
                    row["pins"][key] = dict(ms=t if prev is None else min(t, prev["ms"]), plan=plan)
                os.environ.pop("ECGEMM_FAMILY", None)
                f.write(json.dumps(row) + "\n")
                f.flush()
                best = min(row["pins"].items(), key=lambda kv: kv[1]["ms"])
                print(f"b{batch} {m}x{k}x{n} {op} {mode:8s} cublas {t_peer*1e3:7.1f}us planner x{t_peer/row['pins']['planner']['ms']:.2f} "
                      + " ".join(f"{p}:{t_peer/v['ms']:.2f}" for p, v in row["pins"].items() if p != "planner")
                      + f" | best {best[0]} {best[1]['plan'][:60]}", flush=True)


if __name__ == "__main__":
    main()
