"""PNG plots of a results dict: throughput and residual vs n, residual against time at 8192³ and 16384³,
residual vs k, exponent types, GFLOP/J.
Flagged or failed points are drawn hollow, so a fast but inaccurate method never looks like a plain win."""
import math
import statistics
from collections import defaultdict

from bench import figures, gemmul8_peer, guards
from bench.methods import BY_NAME, CATALOG
from bench.profiles import is_square

FAMILY_STYLE = {"cublas": "--", "ecgemm": "-", "triton": ":", "xla": "-.", "gemmul8": "--"}
FAMILY_MARKER = {"cublas": "s", "ecgemm": "o", "triton": "^", "xla": "D", "gemmul8": "v"}
# ecgemm's accurate modes in strong colours, its one-pass modes in their light shades, cuBLAS in greys
COLORS = {"cublas_sgemm": "#000000", "ecgemm_tf32tf32": "#d62728", "ecgemm_halfhalf": "#1f77b4",
          "ecgemm_fp32": "#8c564b", "ecgemm_tf32": "#ff9896", "ecgemm_fp16": "#aec7e8", "ecgemm_markidis": "#9467bd",
          "cublas_tf32": "#7f7f7f", "cublas_fp16": "#c7c7c7", "triton_tf32x3": "#2ca02c",
          "xla_tf32x3": "#ff7f0e", "xla_bf16x6": "#bcbd22",
          "ecgemm_tf32tf32_fused": "#e377c2", "ecgemm_halfhalf_fused": "#17becf", "ecgemm_auto": "#9edae5"}
# GEMMul8: one hue per scaling mode, darker with more moduli
GEMMUL8_SHADES = {"fast": ("#9ecae1", "#4292c6", "#2171b5", "#08306b"),
                  "accu": ("#fdae6b", "#f16913", "#d94801", "#7f2704")}
COLORS.update({gemmul8_peer.method_name(mode, moduli): shade for mode, shades in GEMMUL8_SHADES.items()
               for moduli, shade in zip(gemmul8_peer.MODULI, shades)})
RESIDUAL_TIME_SIZES = (8192, 16384)
PLOTS = ("throughput.png", "ratio_by_shape.png", "residual_vs_time.png", "residual_vs_k.png", "exponent_types.png",
         "energy.png")


def _pyplot():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def _series(rows, x_of, y_of):
    """{method: sorted [(x, mean y, worst status)]} over rows with a y value."""
    groups = defaultdict(list)
    for r in rows:
        if y_of(r) is not None:
            groups[(r["method"], x_of(r))].append(r)
    series = defaultdict(list)
    for (method, x), group in groups.items():
        series[method].append((x, statistics.fmean(y_of(r) for r in group),
                               guards.worst(r.get("status", guards.OK) for r in group)))
    return {m: sorted(v) for m, v in series.items()}


def _lines(ax, series):
    for m in CATALOG:
        points = series.get(m.name)
        if not points:
            continue
        xs, ys, _ = zip(*points)
        ax.plot(xs, ys, FAMILY_STYLE[m.family], color=COLORS[m.name], label=m.label, linewidth=1.4)
        for x, y, s in points:
            bad = s in (guards.FLAG, guards.FAIL)
            ax.plot([x], [y], "o", color=COLORS[m.name], markersize=5,
                    markerfacecolor="none" if bad else COLORS[m.name])


def plot_throughput(results, path):
    plt = _pyplot()
    rows = [r for r in results["throughput"] if is_square(r["shape"])]
    fig, (left, right) = plt.subplots(1, 2, figsize=(13, 5))
    _lines(left, _series(rows, lambda r: r["shape"][0], lambda r: r.get("tflops")))
    left.set(xlabel="n (m = k = n)", ylabel="TFLOP/s (2n³ / median time)",
             title="Throughput, square FP32 GEMM")
    left.set_xscale("log", base=2)
    left.grid(True, alpha=0.3)
    left.legend(fontsize=7)
    _lines(right, _series(rows, lambda r: r["shape"][0], _finite_residual))
    right.set(yscale="log", xlabel="n (m = k = n)", ylabel="relative residual vs FP64",
              title="Residual of the timed call")
    right.set_xscale("log", base=2)
    right.grid(True, alpha=0.3)
    _finish(fig, results, path)


def plot_ratio_by_shape(results, path):
    """Speed over cuBLAS SGEMM on every measured shape, one bar per method; 1.0 is the line to clear."""
    plt = _pyplot()
    rows = [r for r in results["throughput"] if r.get("ms")]
    sgemm = {tuple(r["shape"]): r["ms"] for r in rows if r["method"] == "cublas_sgemm"}
    shapes = [s for s in dict.fromkeys(tuple(r["shape"]) for r in rows) if s in sgemm]
    methods = [m for m in CATALOG if m.name != "cublas_sgemm" and any(r["method"] == m.name for r in rows)]
    fig, ax = plt.subplots(figsize=(max(8.0, 0.9 * len(shapes) + 3), 5))
    width = 0.8 / max(1, len(methods))
    for i, m in enumerate(methods):
        by_shape = {tuple(r["shape"]): r for r in rows if r["method"] == m.name}
        label = m.label
        for j, shape in enumerate(shapes):
            r = by_shape.get(shape)
            if r is None:
                continue
            bad = r.get("status") in (guards.FLAG, guards.FAIL)
            ax.bar(j + (i - (len(methods) - 1) / 2) * width, sgemm[shape] / r["ms"], width,
                   color="none" if bad else COLORS[m.name], edgecolor=COLORS[m.name], label=label)
            label = None  # one legend entry per method
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.set_xticks(range(len(shapes)), ["×".join(map(str, s)) for s in shapes], rotation=45, ha="right", fontsize=7)
    ax.set(yscale="log", ylabel="× cuBLAS SGEMM (median time)", title="Speed over cuBLAS SGEMM by shape (m×k×n)")
    ax.grid(True, axis="y", alpha=0.3)
    ax.legend(fontsize=7)
    _finish(fig, results, path)


def plot_residual_vs_time(results, path):
    """Residual against median time, one panel per size of RESIDUAL_TIME_SIZES that was measured and one point
    per method (lower left is better). GEMMul8's points are joined per scaling mode in moduli order and labelled
    with their moduli count. Flagged or failed points are hollow."""
    plt = _pyplot()
    from matplotlib.ticker import FormatStrFormatter
    sizes = [n for n in RESIDUAL_TIME_SIZES if _timed_points(results, n)]
    fig, axes = plt.subplots(1, len(sizes), figsize=(7.5 * len(sizes), 6), squeeze=False)
    for ax, n in zip(axes[0], sizes):
        rows = _timed_points(results, n)
        for m in CATALOG:
            r = rows.get(m.name)
            if r is None:
                continue
            bad = r.get("status") in (guards.FLAG, guards.FAIL)
            ax.plot([r["ms"]], [r["residual"]], FAMILY_MARKER[m.family], color=COLORS[m.name], markersize=7,
                    markerfacecolor="none" if bad else COLORS[m.name], label=m.label)
            if m.family == "gemmul8":
                ax.annotate(str(gemmul8_peer.parse_name(m.name)[1]), (r["ms"], r["residual"]),
                            textcoords="offset points", xytext=(5, 3), fontsize=7, color=COLORS[m.name])
        for mode, shades in GEMMUL8_SHADES.items():
            line = [rows[name] for name in (gemmul8_peer.method_name(mode, k) for k in gemmul8_peer.MODULI)
                    if name in rows]
            if len(line) > 1:
                ax.plot([r["ms"] for r in line], [r["residual"] for r in line], "--", color=shades[-1],
                        linewidth=0.8)
        ax.set(xscale="log", yscale="log", xlabel="median time per call (ms)", ylabel="relative residual vs FP64",
               title=f"Residual against time, {n}×{n}×{n} (GEMMul8 labelled with its moduli)")
        ax.xaxis.set_major_formatter(FormatStrFormatter("%g"))   # plain milliseconds on the log axis
        ax.xaxis.set_minor_formatter(FormatStrFormatter("%g"))
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=6, ncol=2)
    _finish(fig, results, path)


def _timed_points(results, n):
    """{method: row} of the n³ throughput rows with a time and a residual a log axis can show."""
    return {r["method"]: r for r in results["throughput"]
            if r["shape"] == [n, n, n] and r.get("ms") and _finite_residual(r) is not None}


def plot_residual_vs_k(results, path):
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(8, 5.5))
    _lines(ax, _series(results["accuracy"], lambda r: r["shape"][1], _finite_residual))
    ax.set(yscale="log", xlabel="k", ylabel="relative residual vs FP64",
           title="Accuracy vs k: 64×k×64, urand(−1, 1) (the paper's Figure 1)")
    ax.set_xscale("log", base=2)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=7)
    _finish(fig, results, path)


def plot_exponent_types(results, path):
    plt = _pyplot()
    series = _series(results["exp_types"], lambda r: r["exp_type"], _finite_residual)
    methods = [m for m in CATALOG if m.name in series]
    fig, ax = plt.subplots(figsize=(11, 5))
    width = 0.8 / max(1, len(methods))
    for i, m in enumerate(methods):
        for j, (t, y, status) in enumerate(series[m.name]):
            bad = status in (guards.FLAG, guards.FAIL)
            ax.bar(t - 0.4 + (i + 0.5) * width, y, width, color=COLORS[m.name], label=None if j else m.label,
                   alpha=0.45 if status == guards.RANGE else 1.0, hatch="///" if status == guards.RANGE else None,
                   fill=not bad, edgecolor="white" if status == guards.RANGE else COLORS[m.name])
    ax.set(yscale="log", xlabel="exponent type (hatched: outside FP16's range, documented)",
           ylabel="relative residual vs FP64", title="The paper's exp_rand types 1–4")
    ax.set_xticks(sorted({t for s in series.values() for t, _, _ in s}))
    ax.grid(True, axis="y", alpha=0.3)
    ax.legend(fontsize=7, ncol=2)
    _finish(fig, results, path)


def plot_energy(results, path):
    plt = _pyplot()
    rows = [r for r in results["energy"] if r.get("gflop_per_joule")]
    rows.sort(key=lambda r: r["gflop_per_joule"])
    fig, ax = plt.subplots(figsize=(9, 0.45 * len(rows) + 1.5))
    labels = [BY_NAME[r["method"]].label for r in rows]
    bars = ax.barh(labels, [r["gflop_per_joule"] for r in rows], color=[COLORS[r["method"]] for r in rows])
    for bar, r in zip(bars, rows):
        ax.text(bar.get_width(), bar.get_y() + bar.get_height() / 2, f" {r['watts']:.0f} W", va="center", fontsize=8)
    n = rows[0]["n"] if rows else "?"
    ax.set(xlabel="GFLOP/J", title=f"Energy efficiency at n = {n} (NVML energy counter)")
    ax.grid(True, axis="x", alpha=0.3)
    _finish(fig, results, path)


def _finite_residual(r):
    """Residuals a log axis can show (a NaN/Inf row is in the table and the flags, not on the plot)."""
    x = r.get("residual")
    return x if x is not None and math.isfinite(x) and x > 0 else None


def _finish(fig, results, path):
    fig.suptitle(f"{results.get('env', {}).get('gpu', '')} — ecgemm bench", fontsize=9, x=0.99, ha="right")
    fig.tight_layout()
    figures.save(fig, path, dpi=110)
    import matplotlib.pyplot as plt
    plt.close(fig)


def write_all(results, folder):
    """Write every plot that has data; returns the paths written."""
    written = []
    for name, plot, has_data in (("throughput.png", plot_throughput, _has("throughput")),
                                 ("ratio_by_shape.png", plot_ratio_by_shape, _has("throughput")),
                                 ("residual_vs_time.png", plot_residual_vs_time,
                                  lambda r: any(_timed_points(r, n) for n in RESIDUAL_TIME_SIZES)),
                                 ("residual_vs_k.png", plot_residual_vs_k, _has("accuracy")),
                                 ("exponent_types.png", plot_exponent_types, _has("exp_types")),
                                 ("energy.png", plot_energy, _has("energy"))):
        if has_data(results):
            path = folder / name
            plot(results, path)
            written.append(path)
    return written


def _has(section):
    return lambda results: bool(results.get(section))
