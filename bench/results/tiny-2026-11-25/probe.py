"""Where a small product's time goes: the kernels one call launches, each one's GPU duration and the
launch-to-launch period of back-to-back calls, for cuBLAS (torch.matmul, TF32 off) and each ecgemm mode,
from one CUPTI trace (torch.profiler) per method. Operands are built as bench.random builds them (op,
padding); the calls queue behind a GPU sleep so that the host's pace drops out.

    python probe.py shapes.txt out.json [ECGEMM_FAMILY pins ...]

shapes.txt: one "m k n op pad_a pad_b" a line. A pin runs tf32tf32 with ECGEMM_FAMILY set to it.
"""
import json
import os
import sys
import tempfile

import torch
from torch.profiler import ProfilerActivity, profile

import ecgemm

CALLS = 24
torch.backends.cuda.matmul.allow_tf32 = False


def operand(rows, cols, pad, trans, seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    store = torch.full((rows, cols + pad), float("nan"), device="cuda")
    view = store[:, :cols]
    view.uniform_(-1.0, 1.0, generator=g)
    return view.t() if trans else view


def trace(call):
    for _ in range(3):
        call()
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        torch.cuda._sleep(40_000_000)
        for _ in range(CALLS):
            call()
        torch.cuda.synchronize()
    with tempfile.NamedTemporaryFile(suffix=".json") as f:
        prof.export_chrome_trace(f.name)
        events = json.load(open(f.name))["traceEvents"]
    gpu = sorted((e for e in events if e.get("cat") in ("kernel", "gpu_memset", "gpu_memcpy")),
                 key=lambda e: e["ts"])
    gpu = [e for e in gpu if "sleep" not in e["name"] and "spin" not in e["name"]]
    per = {}
    for e in gpu:
        name = e["name"][:90]
        d = per.setdefault(name, [0, 0.0])
        d[0] += 1
        d[1] += e["dur"]
    span = (gpu[-1]["ts"] + gpu[-1]["dur"] - gpu[0]["ts"]) if gpu else 0.0
    return {"period_us": span / CALLS, "ops_per_call": len(gpu) / CALLS,
            "kernels": {k: {"per_call": v[0] / CALLS, "mean_us": v[1] / v[0]} for k, v in per.items()}}


def main():
    shapes = [tuple(int(x) if x.isdigit() else x for x in line.split())
              for line in open(sys.argv[1]) if line.strip() and not line.startswith("#")]
    pins = sys.argv[3:]
    rows = []
    for i, (m, k, n, op, pa, pb) in enumerate(shapes):
        ta, tb = op[0] == "T", op[1] == "T"
        a = operand(*((k, m) if ta else (m, k)), pa, ta, 2 * i)
        b = operand(*((n, k) if tb else (k, n)), pb, tb, 2 * i + 1)
        out = torch.empty((m, n), device="cuda")
        row = {"m": m, "k": k, "n": n, "op": op, "pad_a": pa, "pad_b": pb, "methods": {}}
        row["methods"]["cublas"] = trace(lambda: torch.matmul(a, b, out=out))
        for mode in ("tf32tf32", "halfhalf", "auto"):
            r = trace(lambda: ecgemm.matmul(a, b, out=out, mode=mode))
            r["route"] = ecgemm.explain(a, b, mode=mode)
            row["methods"][mode] = r
        for pin in pins:
            os.environ["ECGEMM_FAMILY"] = pin
            try:
                route = ecgemm.explain(a, b, mode="tf32tf32")
                r = trace(lambda: ecgemm.matmul(a, b, out=out, mode="tf32tf32"))
                r["route"] = route
                row["methods"]["pin:" + pin] = r
            finally:
                os.environ.pop("ECGEMM_FAMILY")
        rows.append(row)
        c, t = row["methods"]["cublas"], row["methods"]["tf32tf32"]
        print(f"{m:6d} {k:6d} {n:6d} {op} cublas {c['period_us']:6.2f}us/{c['ops_per_call']:.0f} "
              f"tf32tf32 {t['period_us']:6.2f}us/{t['ops_per_call']:.0f} "
              + " ".join(f"{name}={v['mean_us']:.2f}" for name, v in t["kernels"].items())[:200]
              + " | " + " ".join(f"{name[:40]}={v['mean_us']:.2f}" for name, v in c["kernels"].items())[:160],
              flush=True)
    json.dump({"device": torch.cuda.get_device_name(), "calls": CALLS, "rows": rows}, open(sys.argv[2], "w"),
              indent=1)


if __name__ == "__main__":
    main()
