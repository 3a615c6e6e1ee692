"""GPU time of back-to-back calls (the queue filled behind a GPU sleep first, so the host's pace drops out;
median of rounds) for torch.bmm (cuBLAS, TF32 off) and ecgemm tf32tf32 with each ECGEMM_FAMILY pin given
("-": the planner's own route), on the batched shapes of a file (bench.random's batched operands: contiguous
stacks, as torch.bmm takes them), in one process; residuals against an FP64 product.

    python ab_batched.py shapes.txt out.json PIN [PIN ...]

shapes.txt: one "batch m k n" a line.
"""
import json
import os
import statistics
import sys

import torch

import ecgemm

CALLS, ROUNDS = 20, 7
torch.backends.cuda.matmul.allow_tf32 = False


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
    shapes = [tuple(int(x) for x in line.split())
              for line in open(sys.argv[1]) if line.strip() and not line.startswith("#")]
    pins = sys.argv[3:]
    rows = []
    for i, (count, m, k, n) in enumerate(shapes):
        g = torch.Generator(device="cuda").manual_seed(i)
        a = torch.rand((count, m, k), device="cuda", generator=g) * 2 - 1
        b = torch.rand((count, k, n), device="cuda", generator=g) * 2 - 1
        ref = torch.bmm(a.double(), b.double())
        out = torch.empty((count, m, n), device="cuda")
        row = {"batch": count, "m": m, "k": k, "n": n, "methods": {}}
        row["methods"]["bmm"] = {"us": gpu_us(lambda: torch.bmm(a, b, out=out)), "residual": residual(out, ref)}
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
        c = row["methods"]["bmm"]["us"]
        print(f"{count:6d} x {m:5d} {k:5d} {n:5d} bmm {c:8.2f}us " + " ".join(
            f"{p}: {v['us']:8.2f} ({c / v['us']:.2f}x, res {v['residual'] / max(row['methods']['bmm']['residual'], 1e-30):.2f})"
            for p, v in row["methods"].items() if p != "bmm") + " | " + row["methods"][pins[0]]["route"][:90], flush=True)
    json.dump({"device": torch.cuda.get_device_name(), "calls": CALLS, "rounds": ROUNDS, "rows": rows},
              open(sys.argv[2], "w"), indent=1)


if __name__ == "__main__":
    main()
