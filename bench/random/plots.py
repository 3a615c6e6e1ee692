"""PNG plots of a random-sample results dict: ecgemm's ratio to cuBLAS, one point per case, one column per mode.

- gemm_ratio.png: × cuBLAS SGEMM against m·n (top) and k (bottom), coloured by the route's kernel family;
- gemm_map.png: the cases on the (m·n, k) plane, coloured by × cuBLAS SGEMM (red: slower), marker by family;
- batched_ratio.png: × torch.bmm against m·n·k of one product (top) and the batch (bottom), coloured by family.
Cases at or below 0.95× get a black edge; cases whose residual missed the FP32 promise are drawn hollow.
"""
import math

from bench import figures, guards
from bench.random.report import NEAR, mode_rows

FAMILY_COLORS = {"planes": "#1f77b4", "fused_wgmma": "#d62728", "fused_mma": "#ff7f0e", "simt": "#2ca02c",
                 "gemv": "#9467bd", "unknown": "#7f7f7f"}
EXTRA_COLORS = ("#8c564b", "#e377c2", "#bcbd22", "#17becf")
FAMILY_MARKERS = {"planes": "o", "fused_wgmma": "s", "fused_mma": "D", "simt": "^", "gemv": "v", "unknown": "X"}
RATIO_TICKS = (0.125, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0)
PLOTS = ("gemm_ratio.png", "gemm_map.png", "batched_ratio.png")


def _pyplot():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def _colors(families):
    extra = iter(EXTRA_COLORS * (1 + len(families)))
    return {f: FAMILY_COLORS.get(f) or next(extra) for f in sorted(families)}


def _families(results, section):
    return {e["family"] for m in results["modes"] for _, e in mode_rows(results, section, m)}


def _scatter_ratio(ax, pairs, x_of, colors):
    for family, color in colors.items():
        pts = [(x_of(r), e) for r, e in pairs if e["family"] == family]
        if not pts:
            continue
        bad = [e.get("status") in (guards.FLAG, guards.FAIL) for _, e in pts]
        ax.scatter([x for x, _ in pts], [e["x_cublas"] for _, e in pts], s=14, label=family,
                   facecolors=["none" if b else color for b in bad], edgecolors=[
                       "black" if e["x_cublas"] <= NEAR else color for _, e in pts], linewidths=0.6)
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.axhline(NEAR, color="black", linewidth=0.6, linestyle=":")
    ax.set(xscale="log", yscale="log")
    _ratio_ticks(ax.yaxis)
    ax.grid(True, alpha=0.3)


def _ratio_ticks(axis):
    """Ratios as 0.5×, 1×, 2×, … (a log axis would print 2 × 10^0)."""
    from matplotlib.ticker import FixedLocator, FuncFormatter, NullFormatter
    axis.set_major_locator(FixedLocator(RATIO_TICKS))
    axis.set_major_formatter(FuncFormatter(lambda x, _: f"{x:g}×"))
    axis.set_minor_formatter(NullFormatter())


def _ratio_grid(results, section, x_specs, ylabel, title, path):
    plt = _pyplot()
    modes = results["modes"]
    colors = _colors(_families(results, section))
    fig, axes = plt.subplots(len(x_specs), len(modes), figsize=(4.6 * len(modes), 3.6 * len(x_specs)),
                             squeeze=False, sharey=True)
    for j, mode in enumerate(modes):
        pairs = mode_rows(results, section, mode)
        for i, (xlabel, x_of) in enumerate(x_specs):
            ax = axes[i][j]
            _scatter_ratio(ax, pairs, x_of, colors)
            ax.set(xlabel=xlabel)
            if j == 0:
                ax.set(ylabel=ylabel)
            if i == 0:
                s = results["summary"][section][mode]
                ax.set_title(f"{mode}: geomean {s.get('geomean') or math.nan:.2f}×, "
                             f"{100 * (s.get('near') or 0):.0f}% ≥ {NEAR}×", fontsize=9)
    axes[0][0].legend(fontsize=7, title="route family", title_fontsize=7)
    _finish(fig, results, title, path)


def plot_gemm_ratio(results, path):
    _ratio_grid(results, "gemm", (("m·n (elements of C)", lambda r: r["m"] * r["n"]), ("k", lambda r: r["k"])),
                f"× {_ref(results, 'gemm')}", "ecgemm against cuBLAS SGEMM on random shapes", path)


def plot_batched_ratio(results, path):
    _ratio_grid(results, "batched", (("m·n·k of one product", lambda r: r["m"] * r["n"] * r["k"]),
                                     ("batch", lambda r: r["batch"])),
                f"× {_ref(results, 'batched')}", "ecgemm against torch.bmm on random batches", path)


def plot_gemm_map(results, path):
    plt = _pyplot()
    from matplotlib.colors import LogNorm
    from matplotlib.lines import Line2D
    modes = results["modes"]
    fig, axes = plt.subplots(1, len(modes), figsize=(5.0 * len(modes) + 1, 4.6), squeeze=False, layout="constrained")
    norm = LogNorm(vmin=0.25, vmax=4.0)   # symmetric about 1 on a log scale
    image = None
    for ax, mode in zip(axes[0], modes):
        pairs = mode_rows(results, "gemm", mode)
        for family in sorted({e["family"] for _, e in pairs}):
            pts = [(r, e) for r, e in pairs if e["family"] == family]
            image = ax.scatter([r["m"] * r["n"] for r, _ in pts], [r["k"] for r, _ in pts],
                               c=[min(max(e["x_cublas"], norm.vmin), norm.vmax) for _, e in pts], cmap="RdBu",
                               norm=norm, marker=FAMILY_MARKERS.get(family, "o"), s=22, label=family,
                               edgecolors=["black" if e["x_cublas"] <= NEAR else "none" for _, e in pts],
                               linewidths=0.5)
        ax.set(xscale="log", yscale="log", xlabel="m·n (elements of C)", ylabel="k", title=mode)
        ax.grid(True, alpha=0.3)
        handles = [Line2D([], [], marker=FAMILY_MARKERS.get(f, "o"), color="grey", linestyle="none", label=f)
                   for f in sorted({e["family"] for _, e in pairs})]
        ax.legend(handles=handles, fontsize=7, title="route family", title_fontsize=7, loc="upper right")
    if image is not None:
        bar = fig.colorbar(image, ax=axes[0].tolist(), label=f"× {_ref(results, 'gemm')} (clipped to 0.25 … 4)")
        _ratio_ticks(bar.ax.yaxis)
    _finish(fig, results, "ecgemm against cuBLAS SGEMM over (m·n, k)", path, tight=False)


def _ref(results, section):
    return "cuBLAS SGEMM" if section == "gemm" else "torch.bmm"


def _finish(fig, results, title, path, tight=True):
    fig.suptitle(f"{title} — {results.get('env', {}).get('gpu', '')}, seed {results['sample']['seed']}",
                 fontsize=10)
    if tight:
        fig.tight_layout()
    figures.save(fig, path, dpi=110)
    import matplotlib.pyplot as plt
    plt.close(fig)


def write_all(results, folder):
    """Every plot that has data; returns the paths written."""
    written = []
    for name, plot, section in (("gemm_ratio.png", plot_gemm_ratio, "gemm"), ("gemm_map.png", plot_gemm_map, "gemm"),
                                ("batched_ratio.png", plot_batched_ratio, "batched")):
        if any(mode_rows(results, section, m) for m in results["modes"]):
            path = folder / name
            plot(results, path)
            written.append(path)
    return written
