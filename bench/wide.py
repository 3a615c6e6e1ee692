"""Accuracy on data of wide exponent range, over k: issue 26's data sets, every corrected mode and route beside
cuBLAS SGEMM on the same inputs.

`python -m bench.wide [--ks 16,64,...] [--squares 4096,8192] [--out DIR]`: for each data set (the paper's exponent
types 1-4, rows of A scaled by 2^r with r ~ UniformInt[-100, 100], one outlier of 2^40 per row of A, urand(-1, 1)
and urand(0, 1)) and shape (256 x k x 256 for every k, n x n x n for every square), each method's

- relative Frobenius residual ||C - C64|| / ||C64|| against an FP64 product of the same FP32 inputs,
- componentwise error max_ij |C - C64|_ij / (|A|·|B|)_ij (the measure that scaled rows need: a row of 2^-100
  counts as much as a row of 2^100), and its median,
- GPU time of back-to-back calls (bench.timing.gpu_ms),

and each as a ratio to cuBLAS SGEMM's in the same process. Methods: cuBLAS SGEMM (TF32 off), ecgemm's fp32,
tf32tf32, halfhalf and auto as the planner routes them, and tf32tf32 / auto with a kernel family pinned
(ECGEMM_FAMILY, read per call), so that the table shows which route meets SGEMM's residual where.
Markdown on stdout; results.json, table.md and ratio_vs_k.png in --out.
"""
import argparse
import contextlib
import os
import sys
from pathlib import Path

import numpy as np

import ecgemm
from bench import figures
from bench.inputs import case_seed, exp_pair, urand
from bench.report import write_section
from bench.timing import gpu_ms

DATA = ("type 1", "type 2", "type 3", "type 4", "rows 2^±100", "outlier 2^40", "urand(-1,1)", "urand(0,1)")
# (label, mode, pinned family or None)
METHODS = (("cublas_sgemm", None, None), ("fp32", "fp32", None), ("tf32tf32", "tf32tf32", None),
           ("halfhalf", "halfhalf", None), ("auto", "auto", None),
           ("tf32tf32@fused_mma", "tf32tf32", "fused_mma"), ("tf32tf32@fused_wgmma", "tf32tf32", "fused_wgmma"),
           ("tf32tf32@planes", "tf32tf32", "planes"), ("tf32tf32@simt", "tf32tf32", "simt"),
           ("auto@planes", "auto", "planes"))


def operands(data, m, k, n, seed):
    """A (m x k) and B (k x n) float32 of one data set, the same in every run for the same case."""
    s = case_seed("wide", data, m, k, n, seed)
    if data.startswith("type "):
        return exp_pair(int(data[5:]), m, k, n, s)
    a, b = urand((m, k), case_seed(s, "A")), urand((k, n), case_seed(s, "B"))
    rng = np.random.default_rng(case_seed(s, "shape"))
    if data == "rows 2^±100":
        a *= np.exp2(rng.integers(-100, 101, (m, 1))).astype(np.float32)
    elif data == "outlier 2^40":
        a[np.arange(m), rng.integers(0, k, m)] = np.float32(2.0 ** 40)
    elif data == "urand(0,1)":
        np.abs(a, out=a), np.abs(b, out=b)
    return a, b


@contextlib.contextmanager
def pinned(family):
    """ECGEMM_FAMILY=family for the calls inside (the planner reads it per call)."""
    old = os.environ.get("ECGEMM_FAMILY")
    if family:
        os.environ["ECGEMM_FAMILY"] = family
    try:
        yield
    finally:
        if old is None:
            os.environ.pop("ECGEMM_FAMILY", None)
        else:
            os.environ["ECGEMM_FAMILY"] = old


def errors(torch, c, ref, bound):
    """(Frobenius residual, max and median componentwise error) of c against ref, in float64."""
    diff = (c.double() - ref).abs_()
    res = (torch.linalg.vector_norm(diff) / torch.linalg.vector_norm(ref)).item()
    comp = diff.div_(bound).flatten()
    return res, comp.max().item(), comp.median().item()


def measure(torch, data, m, k, n, seed, timed):
    a_host, b_host = operands(data, m, k, n, seed)
    a, b = torch.from_numpy(a_host).cuda(), torch.from_numpy(b_host).cuda()
    ref = a.double() @ b.double()
    bound = a.double().abs() @ b.double().abs()
    out = torch.empty(m, n, device="cuda")
    rows = []
    for label, mode, family in METHODS:
        def call(mode=mode):
            if mode is None:
                return torch.matmul(a, b, out=out)
            return ecgemm.matmul(a, b, out=out, mode=mode)
        with pinned(family):
            out.fill_(float("nan"))  # poison: an unwritten element makes every error NaN
            call()
            torch.cuda.synchronize()
            res, cmax, cmed = errors(torch, out, ref, bound)
            route = ecgemm.explain(a, b, mode=mode) if mode else "cuBLAS"
            ms = gpu_ms(torch, call) if timed else None
        rows.append({"data": data, "m": m, "k": k, "n": n, "method": label, "route": route, "residual": res,
                     "comp_max": cmax, "comp_median": cmed, "ms": ms})
        print(f"  {data} {m}x{k}x{n} {label}: {res:.3e} {cmax:.2e} {route}", file=sys.stderr)
    del a, b, ref, bound, out
    torch.cuda.empty_cache()
    base = rows[0]
    for r in rows:
        r["x_residual"] = r["residual"] / base["residual"]
        r["x_comp_max"] = r["comp_max"] / base["comp_max"]
        if timed:
            r["x_sgemm"] = base["ms"] / r["ms"]
    return rows


def run(ks, squares, seed):
    import torch
    torch.backends.cuda.matmul.allow_tf32 = False
    rows = []
    for data in DATA:
        for k in ks:
            rows += measure(torch, data, 256, k, 256, seed, timed=False)
        for s in squares:
            rows += measure(torch, data, s, s, s, seed, timed=True)
    return rows


def markdown(results):
    rows = results["rows"]
    lines = [f"# Wide exponent ranges — {results['device']}", "",
             "Each method's residual and componentwise error as a ratio to cuBLAS SGEMM's on the same inputs "
             "(≤ 1.00 meets SGEMM); time × SGEMM where timed. `auto`'s route is the planner's choice.", ""]
    methods = [m[0] for m in METHODS[1:]]
    lines += ["| data | m×k×n | SGEMM residual | SGEMM comp. max | " + " | ".join(methods) + " |",
              "|---|---|---:|---:|" + "---:|" * len(methods)]
    by = {}
    for r in rows:
        by.setdefault((r["data"], r["m"], r["k"], r["n"]), {})[r["method"]] = r
    for (data, m, k, n), case in by.items():
        base = case["cublas_sgemm"]
        cells = []
        for name in methods:
            r = case[name]
            cell = f"{r['x_residual']:.2f} / {r['x_comp_max']:.2f}"
            if r.get("x_sgemm"):
                cell += f" ({r['x_sgemm']:.2f}×)"
            cells.append(cell)
        lines.append(f"| {data} | {m}×{k}×{n} | {base['residual']:.2e} | {base['comp_max']:.2e} | " +
                     " | ".join(cells) + " |")
    lines += ["", "Cells: residual ratio / componentwise-max ratio (speed × SGEMM). Routes (`ecgemm.explain`):", ""]
    seen = set()
    for r in rows:
        key = (r["method"], r["m"], r["k"], r["n"], r["route"])
        if r["method"] in ("tf32tf32", "halfhalf", "auto", "fp32") and key not in seen:
            seen.add(key)
            lines.append(f"- {r['method']} {r['m']}×{r['k']}×{r['n']}: `{r['route']}`")
    return "\n".join(lines)


def plot(results, path):
    """Residual ratio to SGEMM against k (256 x k x 256), a panel per data set, a line per method."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    rows = [r for r in results["rows"] if r["m"] == 256 and r["n"] == 256]
    fig, axes = plt.subplots(2, 4, figsize=(18, 8), sharey=True)
    for ax, data in zip(axes.flat, DATA):
        for name, _, _ in METHODS[1:]:
            pts = sorted((r["k"], r["x_residual"]) for r in rows if r["data"] == data and r["method"] == name)
            if pts:
                ax.plot(*zip(*pts), marker="o", ms=3, label=name)
        ax.axhline(1.0, color="k", lw=0.8)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_title(data)
        ax.set_xlabel("k (256 × k × 256)")
    axes[0, 0].set_ylabel("residual / cuBLAS SGEMM's")
    axes[0, 0].legend(fontsize=7)
    fig.suptitle(f"Residual against SGEMM's on the same inputs — {results['device']}")
    fig.tight_layout()
    figures.save(fig, path, dpi=110)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m bench.wide", description=__doc__.split("\n\n")[0])
    parser.add_argument("--ks", default="16,64,256,1024,4096,16384")
    parser.add_argument("--squares", default="4096")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(argv)
    ks = [int(s) for s in args.ks.split(",") if s]
    squares = [int(s) for s in args.squares.split(",") if s]
    results = {"device": ecgemm._device_properties(0)["name"], "rows": run(ks, squares, args.seed)}
    write_section(args.out, results, markdown(results))
    if args.out is not None:
        plot(results, args.out / "ratio_vs_k.png")


if __name__ == "__main__":
    main()
