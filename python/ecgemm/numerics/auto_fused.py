"""AUTO on the fused mma.sync family (libecgemm/kernels/sm80/fused_mma.cu; docs/numerics.md
section 12): tf32tf32's products, except that a block of 32 rows x 32 columns of C takes a
32-wide stage of k in FP32 where its operands are too wide for two TF32 parts.

- :func:`wide_runs` — which runs of 8 values along k span more than 32 binades between their
  nonzero values, or hold an Inf or a NaN: the kernel's test, on the same bits.
- :func:`wide_blocks` — which (row block, column block, stage) take FP32.
- :func:`fp32_path` — what the FP32 path computes for an output whose every stage is wide:
  each product exact, each stage's products summed from zero in k order, each stage's sum
  added to the output's, every add rounded to nearest (exact arithmetic, so the kernels can
  be compared bit for bit).
"""
from fractions import Fraction

import numpy as np

BLOCK = 32          # rows (columns) of C a decision covers: fused_mma.cu's kGuardBlock
STAGE = 32          # k a decision covers: the kernel's stage (kBK), from a multiple of 32
RUN = 8             # values along k the spread is measured over (kGuardRun)
WIDE_BINADES = 32   # kWideBinades

_ABS = np.uint32(0x7FFFFFFF)
_NON_FINITE = np.uint32(0x7F800000)


def wide_runs(x) -> np.ndarray:
    """x (rows x k, float32): bool rows x ceil(k / RUN), run j covering k in [RUN j, RUN j + RUN).

    A run is wide when (largest magnitude's exponent field) − (smallest nonzero magnitude's)
    exceeds WIDE_BINADES, or when it holds an Inf or a NaN. Zeros (the kernel's zero fill
    past k, and zeros in the data) do not count."""
    x = np.ascontiguousarray(x, dtype=np.float32)
    if x.ndim != 2:
        raise ValueError(f"wide_runs takes a 2-D array, got shape {x.shape}")
    rows, k = x.shape
    runs = -(-k // RUN)
    bits = np.zeros((rows, runs * RUN), dtype=np.uint32)
    bits[:, :k] = x.view(np.uint32) & _ABS
    bits = bits.reshape(rows, runs, RUN)
    hi = bits.max(axis=2)
    lo = (bits - np.uint32(1)).min(axis=2)            # a zero wraps to the top
    spread = (hi >> 23).astype(np.int64) - ((lo + np.uint32(1)) >> 23).astype(np.int64)
    return (hi >= _NON_FINITE) | (spread > WIDE_BINADES)


def wide_blocks(a, b) -> np.ndarray:
    """a (m x k), b (k x n), float32: bool [ceil(m / BLOCK), ceil(n / BLOCK), ceil(k / STAGE)],
    True where that block of C takes that stage in FP32 (a wide run in one of its rows of a
    or columns of b within the stage)."""
    a, b = np.asarray(a, dtype=np.float32), np.asarray(b, dtype=np.float32)
    if a.ndim != 2 or b.ndim != 2 or a.shape[1] != b.shape[0]:
        raise ValueError(f"wide_blocks needs a (m x k) and b (k x n), got {a.shape} and {b.shape}")
    k = a.shape[1]
    stages = -(-k // STAGE)
    per = STAGE // RUN

    def side(runs):  # rows x runs -> row blocks x stages
        rows = runs.shape[0]
        blocks = -(-rows // BLOCK)
        padded = np.zeros((blocks * BLOCK, stages * per), dtype=bool)
        padded[:rows, :runs.shape[1]] = runs
        return padded.reshape(blocks, BLOCK, stages, per).any(axis=(1, 3))

    rows_wide = side(wide_runs(a))
    cols_wide = side(wide_runs(b.T))
    return rows_wide[:, None, :] | cols_wide[None, :, :]


def _round_to_float32(x: Fraction) -> np.float32:
    """The float32 nearest x, ties to even (the candidates around float(x), compared exactly)."""
    guess = np.float32(float(x))
    down = np.nextafter(guess, np.float32(-np.inf))
    up = np.nextafter(guess, np.float32(np.inf))
    best = None
    for c in (down, guess, up):
        if not np.isfinite(c):
            continue
        d = abs(Fraction(float(c)) - x)
        even = (int(np.float32(c).view(np.uint32)) & 1) == 0
        key = (d, not even)
        if best is None or key < best[0]:
            best = (key, c)
    return np.float32(best[1])


def fp32_path(a, b) -> np.ndarray:
    """a (m x k), b (k x n), float32, finite: for each output, acc = 0; for each stage of STAGE k:
    p = fma(a[i, kk], b[kk, j], p) over the stage from p = 0, then acc = acc + p; every step
    rounded once to nearest even (exact rationals, then one rounding each). Slow: small blocks."""
    a, b = np.asarray(a, dtype=np.float32), np.asarray(b, dtype=np.float32)
    m, k = a.shape
    n = b.shape[1]
    fa = [[Fraction(float(v)) for v in row] for row in a]
    fb = [[Fraction(float(b[kk, j])) for kk in range(k)] for j in range(n)]
    c = np.empty((m, n), dtype=np.float32)
    for i in range(m):
        for j in range(n):
            acc = np.float32(0.0)
            for s0 in range(0, k, STAGE):
                part = np.float32(0.0)
                for kk in range(s0, min(k, s0 + STAGE)):
                    part = _round_to_float32(fa[i][kk] * fb[j][kk] + Fraction(float(part)))
                acc = _round_to_float32(Fraction(float(acc)) + Fraction(float(part)))
            c[i, j] = acc
    return c
