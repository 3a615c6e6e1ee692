"""Batched products: ecgemm.matmul on stacks beside torch.bmm (cuBLAS's strided-batched SGEMM).

`python -m bench.batched [--batches "4096,64,64,64;512,256,256,256"] [--out DIR]`: for each
batch of `count` products m x k x n (A, B and C contiguous stacks, urand(-1, 1)), the GPU
time of back-to-back calls (CUDA events, median of batches, the queue filled first) and the
host time to issue one call, of torch.bmm with TF32 off and
of ecgemm.matmul in tf32tf32, halfhalf and auto (one strided-batched call each), TFLOP/s,
the ratio to torch.bmm measured in the same process, and the relative residual of each
against the FP64 product of the same FP32 inputs. Markdown on stdout; results.json,
table.md and ratio.png in --out.
"""
import argparse
import sys
from pathlib import Path

import ecgemm
from bench import figures
from bench.report import write_section
from bench.timing import gpu_ms, host_us_per_call

BATCHES = ((4096, 64, 64, 64), (16384, 32, 32, 32), (2048, 96, 96, 96), (1024, 128, 128, 128),
           (512, 256, 256, 256), (256, 512, 512, 512))
MODES = ("tf32tf32", "halfhalf", "auto")


def run(batches):
    import torch
    torch.backends.cuda.matmul.allow_tf32 = False
    g = torch.Generator(device="cuda").manual_seed(7)
    rows = []
    for count, m, k, n in batches:
        a = torch.rand(count, m, k, device="cuda", generator=g) * 2 - 1
        b = torch.rand(count, k, n, device="cuda", generator=g) * 2 - 1
        ref = a.double() @ b.double()
        out = torch.empty(count, m, n, device="cuda")
        calls = {"torch_bmm": lambda: torch.bmm(a, b, out=out)}
        for mode in MODES:
            calls[f"ecgemm_{mode}"] = lambda mode=mode: ecgemm.matmul(a, b, out=out, mode=mode)
        flops = 2.0 * count * m * n * k
        for name, call in calls.items():
            out.fill_(float("nan"))  # every element must be written
            ms = gpu_ms(torch, call)
            host_us = host_us_per_call(torch, call)
            call()
            torch.cuda.synchronize()
            res = (torch.linalg.norm(out.double() - ref) / torch.linalg.norm(ref)).item()
            rows.append({"count": count, "m": m, "k": k, "n": n, "method": name, "ms": ms,
                         "host_us": host_us, "tflops": flops / ms / 1e9, "residual": res})
            print(f"  {count}x({m}x{k}x{n}) {name}: {ms:.3f} ms, residual {res:.3e}", file=sys.stderr)
        del a, b, ref, out
        torch.cuda.empty_cache()
    base = {(r["count"], r["m"], r["k"], r["n"]): r for r in rows if r["method"] == "torch_bmm"}
    for r in rows:
        r["x_bmm"] = base[(r["count"], r["m"], r["k"], r["n"])]["ms"] / r["ms"]
    return rows


def label(r):
    return f"{r['count']}×({r['m']}×{r['k']}×{r['n']})"


def markdown(results):
    lines = [f"# Batched products — {results['device']}", "",
             "Strided batches (contiguous stacks), GPU time of back-to-back calls, ratios to "
             "torch.bmm (cuBLAS strided-batched SGEMM, TF32 off) in the same process; residual "
             "against the FP64 product of the same FP32 inputs. Host µs: the caller's cost "
             "to issue one call (Python included), which paces calls shorter than it.", "",
             "| batch × (m×k×n) | method | ms | TFLOP/s | × torch.bmm | residual | host µs |",
             "|---|---|---:|---:|---:|---:|---:|"]
    for r in results["rows"]:
        lines.append(f"| {label(r)} | {r['method']} | {r['ms']:.3f} | {r['tflops']:.1f} | "
                     f"{r['x_bmm']:.2f} | {r['residual']:.2e} | {r.get('host_us', float('nan')):.1f} |")
    return "\n".join(lines)


def plot(results, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    rows = results["rows"]
    cases = list(dict.fromkeys(label(r) for r in rows))
    methods = [m for m in dict.fromkeys(r["method"] for r in rows) if m != "torch_bmm"]
    fig, ax = plt.subplots(figsize=(max(8.0, 1.2 * len(cases) + 3), 5))
    width = 0.8 / len(methods)
    for i, method in enumerate(methods):
        ratio = {label(r): r["x_bmm"] for r in rows if r["method"] == method}
        ax.bar([j + (i - (len(methods) - 1) / 2) * width for j in range(len(cases))],
               [ratio[c] for c in cases], width, label=method)
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.set_xticks(range(len(cases)), cases, rotation=30, ha="right", fontsize=8)
    ax.set(ylabel="× torch.bmm (median GPU time)", title=f"Batched products — {results['device']}")
    ax.grid(True, axis="y", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    figures.save(fig, path, dpi=120)
    plt.close(fig)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m bench.batched", description=__doc__)
    parser.add_argument("--batches", default=";".join(",".join(map(str, b)) for b in BATCHES),
                        help="'count,m,k,n;...'")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(argv)
    batches = [tuple(int(x) for x in spec.split(",")) for spec in args.batches.split(";") if spec]
    results = {"device": ecgemm._device_properties(0)["name"], "rows": run(batches)}
    write_section(args.out, results, markdown(results))
    if args.out is not None:
        plot(results, args.out / "ratio.png")


if __name__ == "__main__":
    main()
