"""Figures of the numerics lab (matplotlib is an optional dependency)."""

from __future__ import annotations

import os

from .experiments import accumulation_experiment
from .mantissa import expected_kept_length, kept_length_distribution
from .underflow import underflow_sampled, underflow_theory

EXPONENTS = range(-14, 16)  # hi in FP16's normal range, where the analysis holds
ACCUMULATION_KS = (16, 64, 256, 1024, 4096)


def _pyplot():
    try:
        import matplotlib
    except ImportError as exc:
        raise ImportError("plotting needs matplotlib: pip install matplotlib "
                          "(or pip install 'ecgemm[plot]')") from exc
    matplotlib.use("Agg")  # files only, no display needed
    import matplotlib.pyplot as plt
    return plt


def plot_kept_mantissa(path: str) -> None:
    """Bar chart of the kept mantissa length: the paper's Tables 1 (RN) and 2 (RZ)."""
    plt = _pyplot()
    cases = (("halfhalf, RN (kernels)", "half", None), ("halfhalf, RZ", "half", "rz"),
             ("tf32tf32, RNA (kernels)", "tf32", None))
    lengths = (21, 22, 23)
    fig, ax = plt.subplots(figsize=(6.4, 4.0))
    width = 0.8 / len(cases)
    for i, (label, method, rounding) in enumerate(cases):
        dist = kept_length_distribution(method, rounding)
        mean = float(expected_kept_length(dist))
        ax.bar([L + (i - 1) * width for L in lengths], [float(dist.get(L, 0)) for L in lengths],
               width, label=f"{label}: mean {mean:.2f} bits")
    ax.set_xticks(lengths)
    ax.set_xlabel("mantissa bits kept by hi + lo (of FP32's 23)")
    ax.set_ylabel("probability over all 2^23 mantissas")
    ax.set_title("Kept mantissa length (Ootomo & Yokota, Tables 1-2)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def plot_underflow(path: str, samples: int = 1 << 16) -> None:
    """P_u and P_{u+gu} against e_v: the paper's formulas, RN counts, and sampling."""
    plt = _pyplot()
    fig, axes = plt.subplots(1, 2, figsize=(10.0, 4.0), sharey=True)
    exps = list(EXPONENTS)
    for ax, scaled in zip(axes, (False, True)):
        for index, name in ((0, "P_u"), (1, "P_u+gu")):
            paper = [float(underflow_theory(e, scaled)[index]) for e in exps]
            rn = [float(underflow_theory(e, scaled, "rn")[index]) for e in exps]
            rz_meas = [underflow_sampled(e, scaled, "rz", samples, rng=e + 1000)[index]
                       for e in exps]
            rn_meas = [underflow_sampled(e, scaled, "rn", samples, rng=e + 2000)[index]
                       for e in exps]
            style = "-" if index else "--"
            line, = ax.plot(exps, paper, style, label=f"{name} paper (RZ)")
            ax.plot(exps, rz_meas, "o", color=line.get_color(), ms=3, label=f"{name} sampled, RZ")
            line, = ax.plot(exps, rn, style, label=f"{name} exact, RN (kernels)")
            ax.plot(exps, rn_meas, "x", color=line.get_color(), ms=4,
                    label=f"{name} sampled, kernels' split")
        ax.set_yscale("log")
        ax.set_ylim(1e-5, 2.0)
        ax.set_xlabel("exponent e_v of v")
        ax.set_title("halfhalf: lo = fp16((v - hi) 2^11)" if scaled
                     else "Markidis: lo = fp16(v - hi)")
        ax.grid(True, which="both", alpha=0.3)
    axes[0].set_ylabel("probability")
    axes[1].legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def plot_accumulation(path: str) -> None:
    """The paper's Figure 5 on the emulator: RZ inside the Tensor Core vs RN."""
    plt = _pyplot()
    ks = list(ACCUMULATION_KS)
    results = accumulation_experiment(ks, rng=5)
    fig, ax = plt.subplots(figsize=(6.4, 4.0))
    for label, residuals in results.items():
        ax.plot(ks, residuals, "o-", label=label)
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("k  (A: 16 x k, B: k x 16, uniform(-1, 1))")
    ax.set_ylabel("relative residual vs FP64")
    ax.set_title("Tensor Core accumulation, emulated (paper's Figure 5)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def plot_all(directory: str) -> list[str]:
    """Write every figure into `directory` (created if missing); returns the paths."""
    _pyplot()  # fail early, before any work, when matplotlib is missing
    os.makedirs(directory, exist_ok=True)
    paths = []
    for name, draw in (("numerics_kept_mantissa.png", plot_kept_mantissa),
                       ("numerics_underflow.png", plot_underflow),
                       ("numerics_accumulation.png", plot_accumulation)):
        path = os.path.join(directory, name)
        draw(path)
        paths.append(path)
    return paths
