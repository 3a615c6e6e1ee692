"""ECGEMM_MODE_AUTO's choice, as the library makes it on the device
(libecgemm/kernels/planes/auto_scale.hpp).

Row i of op(A) is scaled by 2^s_i and column j of op(B) by 2^t_j, with the exponent of
the row's largest magnitude brought to TOP_EXPONENT (values in [2^14, 2^15): FP16's hi
part cannot round to Inf); the halfhalf products of the scaled operands are scaled back
by 2^-(s_i + t_j). If any row or column holds NaN/Inf, or its smallest non-zero
magnitude would land below 2^BOTTOM_EXPONENT after scaling (more than 29 binades of
spread: lo's subnormal step, 2^-36 absolute, would cost that element more than 2^-21 = 8u
of itself, halfhalf's per-product error anyway), the
whole call takes tf32tf32's products instead: on the same scaled operands, or on the
operands as they are when NaN/Inf occur (scaling could turn a finite product into Inf)
or when scaling would push a smallest magnitude below 2^WIDE_BOTTOM_EXPONENT (more than
129 binades of spread: tf32tf32's low part, at most 2^-11 of the element, would be
subnormal, and below 2^-149 the element itself is lost, where the operands as they are
keep it: [2^100, 2^-66] . [2^-100, 2^66] is 2, not 0).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

TOP_EXPONENT = 14
BOTTOM_EXPONENT = -15
WIDE_BOTTOM_EXPONENT = -115


@dataclass(frozen=True)
class AutoChoice:
    row_exp: np.ndarray   # int, one per row of op(A) (all 0 when unscaled)
    col_exp: np.ndarray   # int, one per column of op(B)
    fallback: bool        # True: tf32tf32's products; False: halfhalf's
    scaled: bool          # False with NaN/Inf or > 129 binades: tf32tf32 on the operands as they are

    @property
    def mode(self) -> str:
        return "tf32tf32" if self.fallback else "halfhalf"


def _exponents(x: np.ndarray, axis):
    """Per slice along `axis`: (exponent of max |x|, exponent of min non-zero |x|, non-zero?,
    finite?)."""
    mag = np.abs(x.astype(np.float32))
    finite = np.isfinite(mag).all(axis=axis)
    safe = np.where(np.isfinite(mag), mag, 0.0)
    top = safe.max(axis=axis)
    bottom = np.where(safe > 0, safe, np.inf).min(axis=axis)
    # frexp: x = f * 2^e with f in [0.5, 1), so floor(log2 x) = e - 1 (subnormals included).
    top_exp = np.frexp(top)[1] - 1
    bottom_exp = np.frexp(np.where(np.isfinite(bottom), bottom, 1.0))[1] - 1
    return top_exp, bottom_exp, top > 0, finite


def _slices(x: np.ndarray, axis):
    """Per slice along `axis` (an int, or a tuple for a block of several): (scale exponent,
    fits FP16's route once scaled, keeps its elements once scaled, finite?). One source for
    the whole-row rule here and the per-k-block one (auto_blocks.py)."""
    top_exp, bottom_exp, nonzero, finite = _exponents(x, axis)
    scale = np.where(nonzero & finite, TOP_EXPONENT - top_exp, 0).astype(np.int64)
    fits = ~nonzero | (bottom_exp + scale >= BOTTOM_EXPONENT)
    keeps = ~nonzero | (bottom_exp + scale >= WIDE_BOTTOM_EXPONENT)
    return scale, fits, keeps, finite


def _side(x: np.ndarray, axis: int):
    """(scales, every slice fits FP16's route, every slice keeps its elements when scaled,
    every slice finite)."""
    scale, fits, keeps, finite = _slices(x, axis)
    return scale, bool(fits.all()), bool(keeps.all()), bool(finite.all())


def auto_choice(a, b) -> AutoChoice:
    """The scales and the route AUTO takes for op(A) = a (m x k) and op(B) = b (k x n)."""
    a, b = np.asarray(a, dtype=np.float32), np.asarray(b, dtype=np.float32)
    if a.ndim != 2 or b.ndim != 2 or a.shape[1] != b.shape[0]:
        raise ValueError(f"auto_choice: shapes {a.shape} and {b.shape} do not multiply")
    row_exp, rows_fit, rows_keep, rows_finite = _side(a, axis=1)
    col_exp, cols_fit, cols_keep, cols_finite = _side(b, axis=0)
    # NaN/Inf: scaling could make a finite product Inf; too wide: it would lose elements.
    if not (rows_finite and cols_finite and rows_keep and cols_keep):
        return AutoChoice(np.zeros_like(row_exp), np.zeros_like(col_exp), True, False)
    return AutoChoice(row_exp, col_exp, not (rows_fit and cols_fit), True)


def scaled_operands(a, b, choice: AutoChoice):
    """op(A) and op(B) after AUTO's exact power-of-two scaling (float32)."""
    a = np.ldexp(np.asarray(a, dtype=np.float32), choice.row_exp[:, None].astype(np.int32))
    b = np.ldexp(np.asarray(b, dtype=np.float32), choice.col_exp[None, :].astype(np.int32))
    return a.astype(np.float32), b.astype(np.float32)


def unscale(c, choice: AutoChoice) -> np.ndarray:
    """C_ij * 2^-(s_i + t_j) in float32 (exact unless the result leaves FP32's normal range,
    where it rounds once, as ldexpf does)."""
    shift = -(choice.row_exp[:, None] + choice.col_exp[None, :])
    return np.ldexp(np.asarray(c, dtype=np.float64), shift.astype(np.int32)).astype(np.float32)
