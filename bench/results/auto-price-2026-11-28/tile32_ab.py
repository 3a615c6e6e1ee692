"""fused_mma's 32-wide tile at 8 CTAs an SM (64 registers) against 6 (80): every (case, mode) of call 2's sweep (seed 26)
that the planner ran on that tile's Tensor Core products, 2-D and batched, timed with the planner's own route in each
build (run once per build, in the order base, new, new, base). GPU time of 10 back-to-back calls behind a GPU sleep
sized to outlast issuing them (median of 7 rounds); the output's bits as a checksum, so that the builds can be shown to
compute the same. One JSON line a (case, mode).

    python tile32_ab.py OUT.jsonl
"""
import gzip
import json
import statistics
import sys
import time

import torch

from probe import HERE, operand

import ecgemm  # noqa: E402

SWEEP = HERE / "call2" / "random-26" / "results.json.gz"
CYCLES_PER_MS = 2_000_000  # bench.timing.GPU_CYCLES_PER_MS: an upper bound on the SM clock


def gpu_us(call, calls=10, rounds=7):
    call()
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    for _ in range(calls):
        call()
    host_ms = (time.perf_counter() - t0) * 1e3
    torch.cuda.synchronize()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    times = []
    for _ in range(rounds):
        torch.cuda._sleep(int(max(0.2, 3 * host_ms) * CYCLES_PER_MS))
        start.record()
        for _ in range(calls):
            call()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) * 1e3 / calls)
    return statistics.median(times)


def selected():
    data = json.load(gzip.open(SWEEP))
    for kind in ("gemm", "batched"):
        for case in data[kind]:
            modes = [mode for mode in ("tf32tf32", "halfhalf", "auto")
                     if "family=fused_mma" in (r := case["methods"][mode]["route"]) and "tile=32x32" in r
                     and "method=fp32" not in r]
            if modes:
                yield case, modes


def main(out):
    with open(out, "w") as f:
        for case, modes in selected():
            m, k, n = case["m"], case["k"], case["n"]
            if "batch" in case:
                g = torch.Generator(device="cuda").manual_seed(m * 7 + k)
                a = torch.rand(case["batch"], m, k, device="cuda", generator=g) * 2 - 1
                b = torch.rand(case["batch"], k, n, device="cuda", generator=g) * 2 - 1
                c = torch.empty(case["batch"], m, n, device="cuda")
            else:
                ta, tb = case["trans_a"], case["trans_b"]
                a = operand(*((k, m) if ta else (m, k)), case["pad_a"], ta, m * 7 + k)
                b = operand(*((n, k) if tb else (k, n)), case["pad_b"], tb, n * 11 + k)
                c = torch.empty(m, n, device="cuda")
            for mode in modes:
                us = gpu_us(lambda: ecgemm.matmul(a, b, mode=mode, out=c))
                bits = int(c.view(torch.int32).to(torch.int64).sum().item())
                f.write(json.dumps({"id": case["id"], "mode": mode, "batch": case.get("batch", 1), "m": m, "k": k,
                                    "n": n, "route": ecgemm.explain(a, b, mode=mode), "us": us, "bits": bits}) + "\n")
            del a, b, c
            torch.cuda.empty_cache()


if __name__ == "__main__":
    main(sys.argv[1])
