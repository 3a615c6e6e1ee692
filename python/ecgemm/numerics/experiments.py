"""The paper's accuracy experiments, run on the CPU emulator at small sizes."""

from __future__ import annotations

from typing import Iterable

import numpy as np

from .emulator import gemm, relative_residual

# (label, mode, options) for the paper's Figure 5: Markidis' method on mma_rz (what
# Tensor Cores do) and mma_rn, against FP32 and ecgemm's corrected modes.
FIGURE5_CURVES = (
    ("FP32 (sequential FMA)", "fp32", {}),
    ("Markidis, mma_rz", "markidis", {"rounding": "rz"}),
    ("Markidis, mma_rn", "markidis", {"rounding": "rn"}),
    ("halfhalf, RN promotion", "halfhalf", {"rounding": "rz"}),
    ("tf32tf32, RN promotion", "tf32tf32", {"rounding": "rz"}),
    ("TF32, one pass", "tf32", {"rounding": "rz"}),
)


def accumulation_experiment(ks: Iterable[int], m: int = 16, n: int = 16, repeats: int = 4,
                            curves=FIGURE5_CURVES, rng=None) -> dict[str, list[float]]:
    """Mean relative residual (the paper's Eq. 8) of each curve for each k.

    A (m x k) and B (k x n) are uniform on (-1, 1), as in the paper's Figures 1 and 5;
    `repeats` independent pairs per k are averaged, the same pairs for every curve.
    """
    rng = np.random.default_rng(rng)
    results: dict[str, list[float]] = {label: [] for label, _, _ in curves}
    for k in ks:
        a = rng.uniform(-1.0, 1.0, (repeats, m, k)).astype(np.float32)
        b = rng.uniform(-1.0, 1.0, (repeats, k, n)).astype(np.float32)
        for label, mode, options in curves:
            c = gemm(a, b, mode, **options)
            results[label].append(float(np.mean(
                [relative_residual(c[r], a[r], b[r]) for r in range(repeats)])))
    return results
