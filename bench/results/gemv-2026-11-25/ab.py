"""GPU time of back-to-back calls (the queue filled behind a GPU sleep first, so the host's pace drops out;
median of rounds) for cuBLAS SGEMM (torch.matmul, TF32 off) and ecgemm tf32tf32 with each ECGEMM_FAMILY pin
given ("-": the planner's own route), on the shapes of a file, in one process. Operands as bench.random
builds them (op, padding).

    python ab.py shapes.txt out.json PIN [PIN ...]

shapes.txt: one "m k n op pad_a pad_b" a line.
"""
import json
import os
import statistics
import sys

import torch

import ecgemm

CALLS, ROUNDS = 20, 7
torch.backends.cuda.matmul.allow_tf32 = False


def operand(rows, cols, pad, trans, seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    store = torch.full((rows, cols + pad), float("nan"), device="cuda")
    view = store[:, :cols]
    view.uniform_(-1.0, 1.0, generator=g)
    return view.t() if trans else view


def gpu_us(call):
    call()
    torch.cuda.synchronize()
    times = []
    for _ in range(ROUNDS):
        start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        torch.cuda._sleep(2_000_000)  # the calls queue up behind it
        start.record()
        for _ in range(CALLS):
            call()
        stop.record()
        torch.cuda.synchronize()
        times.append(start.elapsed_time(stop) * 1e3 / CALLS)
    return statistics.median(times)


def residual(out, ref):
    return float(torch.linalg.norm(out.double() - ref) / torch.linalg.norm(ref))


def main():
    shapes = [tuple(int(x) if x.isdigit() else x for x in line.split())
              for line in open(sys.argv[1]) if line.strip() and not line.startswith("#")]
    pins = sys.argv[3:]
    rows = []
    for i, (m, k, n, op, pa, pb) in enumerate(shapes):
        ta, tb = op[0] == "T", op[1] == "T"
        a = operand(*((k, m) if ta else (m, k)), pa, ta, 2 * i)
        b = operand(*((n, k) if tb else (k, n)), pb, tb, 2 * i + 1)
        ref = a.double() @ b.double()
        out = torch.empty((m, n), device="cuda")
        row = {"m": m, "k": k, "n": n, "op": op, "pad_a": pa, "pad_b": pb, "methods": {}}
        row["methods"]["cublas"] = {"us": gpu_us(lambda: torch.matmul(a, b, out=out)), "residual": residual(out, ref)}
        for pin in pins:
            if pin != "-":
                os.environ["ECGEMM_FAMILY"] = pin
            try:
                route = ecgemm.explain(a, b, mode="tf32tf32")
                out.fill_(float("nan"))
                us = gpu_us(lambda: ecgemm.matmul(a, b, out=out, mode="tf32tf32"))
                row["methods"][pin] = {"us": us, "residual": residual(out, ref), "route": route}
            finally:
                os.environ.pop("ECGEMM_FAMILY", None)
        rows.append(row)
        c = row["methods"]["cublas"]["us"]
        print(f"{m:7d} {k:7d} {n:6d} {op} cublas {c:7.2f}us " + " ".join(
            f"{p}: {v['us']:7.2f} ({c / v['us']:.2f}x, res {v['residual'] / max(row['methods']['cublas']['residual'], 1e-30):.2f})"
            for p, v in row["methods"].items() if p != "cublas") + " | " + row["methods"][pins[0]]["route"][:90], flush=True)
    json.dump({"device": torch.cuda.get_device_name(), "calls": CALLS, "rounds": ROUNDS, "rows": rows},
              open(sys.argv[2], "w"), indent=1)


if __name__ == "__main__":
    main()
