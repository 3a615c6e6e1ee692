"""What retiring fused_mma's plain (64-wide) tile would cost (call 5): on each case of cases-64.txt (the planner's
route is the 64-wide tile), the planner's route and the 32-wide tile pinned (ECGEMM_FAMILY=fused_mma:32, its own
splits), GPU time against cuBLAS SGEMM (torch.matmul; torch.bmm for a batch) in the same process, and each one's
residual over cuBLAS's on changed_ab.py's operands (urand(-1, 1)) and on their absolute values (positive data).
One JSON line a case; a summary by mode, batch or not, and k on stdout.

    python tiles.py OUT.jsonl
"""
import json
import math
import os
import pathlib
import sys

import torch

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "auto-price-2026-11-28"))
from changed_ab import cases  # noqa: E402
from probe import gpu_us, operand, rel  # noqa: E402

import ecgemm  # noqa: E402

PINS = {"planner": None, "mma32": "fused_mma:32"}


def operands(batch, m, k, n, op, pad_a, pad_b):
    if batch > 1:
        g = torch.Generator(device="cuda").manual_seed(m * 7 + k)
        a = torch.rand(batch, m, k, device="cuda", generator=g) * 2 - 1
        b = torch.rand(batch, k, n, device="cuda", generator=g) * 2 - 1
        return a, b, torch.empty(batch, m, n, device="cuda")
    ta, tb = op[0] == "T", op[1] == "T"
    a = operand(*((k, m) if ta else (m, k)), pad_a, ta, m * 7 + k)
    b = operand(*((n, k) if tb else (k, n)), pad_b, tb, n * 11 + k)
    return a, b, torch.empty(m, n, device="cuda")


def gm(xs):
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else float("nan")


def main(out):
    rows = []
    with open(out, "w") as f:
        for seed, cid, batch, m, k, n, op, pad_a, pad_b, mode in cases(HERE / "cases-64.txt"):
            a, b, c = operands(batch, m, k, n, op, pad_a, pad_b)
            peer = (lambda: torch.bmm(a, b, out=c)) if batch > 1 else (lambda: torch.matmul(a, b, out=c))
            row = {"seed": seed, "id": cid, "batch": batch, "m": m, "k": k, "n": n, "op": op, "mode": mode,
                   "peer_us": gpu_us(peer)}
            for data in ("urand", "positive"):
                if data == "positive":
                    a.abs_(), b.abs_()
                ref = a.double() @ b.double()
                peer()
                res_peer = rel(c, ref)
                for name, pin in PINS.items():
                    if pin:
                        os.environ["ECGEMM_FAMILY"] = pin
                    c.fill_(float("nan"))
                    ecgemm.matmul(a, b, mode=mode, out=c)
                    entry = row.setdefault(name, {"route": ecgemm.explain(a, b, mode=mode)})
                    entry[f"residual_{data}"] = rel(c, ref) / res_peer
                    if data == "urand":
                        entry["us"] = gpu_us(lambda: ecgemm.matmul(a, b, mode=mode, out=c))
                    os.environ.pop("ECGEMM_FAMILY", None)
            f.write(json.dumps(row) + "\n")
            rows.append(row)
            del a, b, c
            torch.cuda.empty_cache()
    print("| mode | products | k | cases | 64-wide × cuBLAS | 32-wide × cuBLAS | 32 / 64 time | residual ratio >1.0, 64 / 32 (urand; positive) |")
    print("|---|---|---|---:|---:|---:|---:|---|")
    for mode in ("tf32tf32", "halfhalf"):
        for kind in ("2-D", "batches"):
            for lo, hi in ((1, 128), (129, 512), (513, 1 << 40)):
                sel = [r for r in rows if r["mode"] == mode and (r["batch"] > 1) == (kind == "batches")
                       and lo <= r["k"] <= hi]
                if not sel:
                    continue
                x64 = gm([r["peer_us"] / r["planner"]["us"] for r in sel])
                x32 = gm([r["peer_us"] / r["mma32"]["us"] for r in sel])
                t = gm([r["mma32"]["us"] / r["planner"]["us"] for r in sel])
                above = "; ".join(" / ".join(str(sum(r[p][f"residual_{d}"] > 1.0 for r in sel))
                                             for p in PINS) for d in ("urand", "positive"))
                band = f"{lo}..{hi if hi < 1 << 40 else ''}"
                print(f"| {mode} | {kind} | {band} | {len(sel)} | {x64:.3f} | {x32:.3f} | {t:.3f} | {above} |")


if __name__ == "__main__":
    main(sys.argv[1])
