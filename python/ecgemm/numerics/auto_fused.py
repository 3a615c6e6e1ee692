"""AUTO on the fused mma.sync family (libecgemm/kernels/sm80/fused_mma.cu; docs/numerics.md
sections 12 and 13), in either of its two forms: tf32tf32's products, or halfhalf's on values
scaled by a power of two per row of op(A) and per column of op(B) in each 32-wide stage of k;
in both, a block of 32 rows x 32 columns of C takes a stage in FP32 where its operands are too
wide for the form's two parts.

- :func:`wide_runs` — which runs of 8 values along k span more than 32 binades between their
  nonzero values, or hold an Inf or a NaN: the kernel's test, on the same bits.
- :func:`wide_blocks` — which (row block, column block, stage) take FP32.
  With a tile's extents for the block's, fused_wgmma's (libecgemm/kernels/sm90), whose decision
  covers a whole tile of C.
- :func:`unscalable_stages`, :func:`scaled_wide_blocks` — the same for the scaled form: a row
  of op(A) (column of op(B)) cannot be scaled in a stage when its nonzero magnitudes span more
  than SCALED_BINADES binades, its largest lies outside 2^±SCALED_MAX_EXP, or it holds an Inf
  or a NaN.
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
SCALED_BINADES = 28  # kScaledBinades: scaled into [2^-14, 2^15), each value keeps 22 bits
SCALED_MAX_EXP = 60  # kScaledMaxExp: the unscale factors' product stays a normal float

_ABS = np.uint32(0x7FFFFFFF)
_NON_FINITE = np.uint32(0x7F800000)


def wide_runs(x) -> np.ndarray:
    """x (rows x k, float32): bool rows x ceil(k / RUN), run j covering k in [RUN j, RUN j + RUN).

    A run is wide when (largest magnitude's exponent field) − (smallest nonzero magnitude's)
    exceeds WIDE_BINADES, or when it holds an Inf or a NaN. Zeros (the kernel's zero fill
    past k, and zeros in the data) do not count."""
    top, e_top, e_bottom = _extremes(_runs(x, RUN))
    return (top >= _NON_FINITE) | (e_top - e_bottom > WIDE_BINADES)


def _runs(x, width):
    """x (rows x k) -> |x|'s bits, rows x ceil(k / width) x width, zero past k."""
    x = np.ascontiguousarray(x, dtype=np.float32)
    if x.ndim != 2:
        raise ValueError(f"expected a 2-D array, got shape {x.shape}")
    rows, k = x.shape
    runs = -(-k // width)
    bits = np.zeros((rows, runs * width), dtype=np.uint32)
    bits[:, :k] = x.view(np.uint32) & _ABS
    return bits.reshape(rows, runs, width)


def _extremes(bits):
    """Per run: the largest magnitude's bits, its exponent field, and the smallest nonzero
    magnitude's exponent field (a zero wraps to the top of `bits - 1`, so zeros do not count)."""
    top = bits.max(axis=2)
    bottom = (bits - np.uint32(1)).min(axis=2)
    return top, (top >> 23).astype(np.int64), ((bottom + np.uint32(1)) >> 23).astype(np.int64)


def unscalable_stages(x) -> np.ndarray:
    """x (rows x k, float32): bool rows x ceil(k / STAGE), True where the scaled form cannot
    scale that row in that stage (the kernel's scale_and_split, on the same bits)."""
    top, e_top, e_bottom = _extremes(_runs(x, STAGE))
    out_of_range = (e_top < 127 - SCALED_MAX_EXP) | (e_top > 127 + SCALED_MAX_EXP)
    too_wide = e_top - e_bottom > SCALED_BINADES
    return (top >= _NON_FINITE) | ((top != 0) & (out_of_range | too_wide))


def _blocks(a, b):
    a, b = np.asarray(a, dtype=np.float32), np.asarray(b, dtype=np.float32)
    if a.ndim != 2 or b.ndim != 2 or a.shape[1] != b.shape[0]:
        raise ValueError(f"expected a (m x k) and b (k x n), got {a.shape} and {b.shape}")
    return a, b


def _row_blocks(marks, per, block=BLOCK):
    """rows x (stages * per) bool -> row blocks x stages: any mark in the block's rows."""
    rows, cols = marks.shape
    blocks = -(-rows // block)
    padded = np.zeros((blocks * block, cols), dtype=bool)
    padded[:rows] = marks
    return padded.reshape(blocks, block, cols // per, per).any(axis=(1, 3))


def scaled_wide_blocks(a, b) -> np.ndarray:
    """As :func:`wide_blocks`, for the scaled form."""
    a, b = _blocks(a, b)
    rows = _row_blocks(unscalable_stages(a), 1)
    cols = _row_blocks(unscalable_stages(b.T), 1)
    return rows[:, None, :] | cols[None, :, :]


def wide_blocks(a, b, block_rows=BLOCK, block_cols=BLOCK) -> np.ndarray:
    """a (m x k), b (k x n), float32: bool [ceil(m / block_rows), ceil(n / block_cols),
    ceil(k / STAGE)], True where that block of C takes that stage in FP32 (a wide run in one
    of its rows of a or columns of b within the stage). fused_mma's blocks are 32 x 32;
    fused_wgmma's are its tiles (a swapped call's tile has C's columns on its rows)."""
    a, b = _blocks(a, b)
    stages = -(-a.shape[1] // STAGE)
    per = STAGE // RUN

    def side(runs, block):  # rows x runs -> row blocks x stages
        padded = np.zeros((runs.shape[0], stages * per), dtype=bool)
        padded[:, :runs.shape[1]] = runs
        return _row_blocks(padded, per, block)

    rows_wide = side(wide_runs(a), block_rows)
    cols_wide = side(wide_runs(b.T), block_cols)
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
