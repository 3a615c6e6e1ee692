"""ECGEMM_MODE_AUTO's speed and its statistics pass, beside halfhalf, tf32tf32 and cuBLAS SGEMM.

`python -m bench.auto [--sizes 4096,8192] [--out DIR]`: for each size n (n x n x n) and
for data that AUTO scales (the paper's exponent type 1) and data it must hand to
tf32tf32 (type 4), the GPU time of back-to-back calls of each method (CUDA events, median
of batches), TFLOP/s, ratios, the relative residual vs FP64 of the same FP32 inputs, and
from the PyTorch profiler the GPU time of AUTO's own work (clearing its statistics,
the statistics pass and the scale choice) as a share of the whole call. Markdown on stdout, results.json in --out.
"""
import argparse
import sys
from pathlib import Path


import ecgemm
from bench.inputs import EXP_TYPES, exp_pair
from bench.report import write_section
from bench.timing import gpu_ms

METHODS = ("cublas_sgemm", "ecgemm_tf32tf32", "ecgemm_halfhalf", "ecgemm_auto")
DATA = {"type 1 (AUTO scales)": 1, "type 4 (AUTO falls back)": 4}
AUTO_KERNELS = ("stats_kernel", "decide_kernel", "Memset")  # AUTO's own work (auto_scale.cu)


def kernel_times(torch, call):
    """{kernel name: GPU us} over one call (PyTorch profiler)."""
    from torch.profiler import ProfilerActivity, profile
    call()
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        call()
        torch.cuda.synchronize()
    times = {}
    for event in prof.key_averages():
        us = getattr(event, "device_time_total", None) or getattr(event, "cuda_time_total", 0.0)
        if us and "ProfilerStep" not in event.key:
            times[event.key[:90]] = times.get(event.key[:90], 0.0) + us
    return times


def auto_kernel_share(torch, call):
    """(GPU us of AUTO's own work, GPU us of the whole call, per kernel) over one call."""
    times = kernel_times(torch, call)
    total = sum(us for name, us in times.items() if not name.startswith("Memcpy"))
    mine = sum(us for name, us in times.items() if any(k in name for k in AUTO_KERNELS))
    return mine, total, times


def run(sizes):
    import torch
    torch.backends.cuda.matmul.allow_tf32 = False
    rows = []
    for n in sizes:
        for label, exp_type in DATA.items():
            a_host, b_host = exp_pair(exp_type, n, n, n, seed=exp_type)
            a, b = torch.from_numpy(a_host).cuda(), torch.from_numpy(b_host).cuda()
            ref = a.double() @ b.double()
            out = torch.empty(n, n, device="cuda")
            calls = {"cublas_sgemm": lambda: torch.matmul(a, b, out=out)}
            for mode in ("tf32tf32", "halfhalf", "auto"):
                calls[f"ecgemm_{mode}"] = lambda mode=mode: ecgemm.matmul(a, b, out=out, mode=mode)
            flops = 2.0 * n ** 3
            for name in METHODS:
                ms = gpu_ms(torch, calls[name])
                calls[name]()
                torch.cuda.synchronize()
                res = (torch.linalg.norm(out.double() - ref) / torch.linalg.norm(ref)).item()
                row = {"n": n, "data": label, "exp_type": exp_type, "method": name, "ms": ms,
                       "tflops": flops / ms / 1e9, "residual": res}
                if name in ("ecgemm_auto", "ecgemm_halfhalf", "ecgemm_tf32tf32"):
                    mine, total, times = auto_kernel_share(torch, calls[name])
                    row.update(all_kernels_us=total, kernels=times)
                    if name == "ecgemm_auto":
                        row.update(auto_kernels_us=mine)
                rows.append(row)
                print(f"  {n} {label} {name}: {ms:.3f} ms, residual {res:.3e}", file=sys.stderr)
            del a, b, ref, out
            torch.cuda.empty_cache()
    by = {(r["n"], r["exp_type"], r["method"]): r for r in rows}
    for r in rows:
        base = by[(r["n"], r["exp_type"], "cublas_sgemm")]
        r["x_sgemm"] = base["ms"] / r["ms"]
        r["x_halfhalf"] = by[(r["n"], r["exp_type"], "ecgemm_halfhalf")]["ms"] / r["ms"]
        r["x_tf32tf32"] = by[(r["n"], r["exp_type"], "ecgemm_tf32tf32")]["ms"] / r["ms"]
    return rows


def markdown(results):
    lines = [f"# ECGEMM_MODE_AUTO — {results['device']}", "",
             "n³ products, GPU time of back-to-back calls; exponent types as the paper's "
             f"({', '.join(f'{t}: A {a}, B {b}' for t, (a, b) in EXP_TYPES.items())}).", "",
             "| n | data | method | ms | TFLOP/s | × SGEMM | × halfhalf | × tf32tf32 | residual | "
             "AUTO's own kernels |", "|---:|---|---|---:|---:|---:|---:|---:|---:|---|"]
    for r in results["rows"]:
        share = ""
        if "auto_kernels_us" in r and r["all_kernels_us"]:
            share = f"{r['auto_kernels_us']:.0f} of {r['all_kernels_us']:.0f} µs " \
                    f"({100 * r['auto_kernels_us'] / r['all_kernels_us']:.1f}%)"
        lines.append(f"| {r['n']} | {r['data']} | {r['method']} | {r['ms']:.3f} | {r['tflops']:.1f} | "
                     f"{r['x_sgemm']:.2f} | {r['x_halfhalf']:.2f} | {r['x_tf32tf32']:.2f} | "
                     f"{r['residual']:.2e} | {share} |")
    lines += ["", "Where the time goes (PyTorch profiler, GPU µs of one call, per kernel):", ""]
    for r in results["rows"]:
        if r.get("kernels"):
            parts = ", ".join(f"{name} {us:.0f}" for name, us in
                              sorted(r["kernels"].items(), key=lambda kv: -kv[1]))
            lines.append(f"- {r['n']} {r['data']} {r['method']}: {parts}")
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m bench.auto", description=__doc__)
    parser.add_argument("--sizes", default="4096,8192")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",") if s]
    results = {"device": ecgemm._device_properties(0)["name"], "rows": run(sizes)}
    write_section(args.out, results, markdown(results))


if __name__ == "__main__":
    main()
