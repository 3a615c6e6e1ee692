"""Underflow of the FP16 low part: the paper's P(l0 = n), P_u(e_v) and P_{u+gu}(e_v).

For v = 1.m · 2^e_v and hi = toFP16(v) with RZ, the residual v - hi starts at
mantissa bit m_{12 - l0}, where l0 counts the zeros from m_12 toward the LSB; its
exponent is e_v - (l0 + l_F16 + 1). Stored in FP16 it is subnormal (gradual
underflow) below 2^(1 - b_F16) and zero (underflow) below 2^(1 - b_F16 - l_F16).
halfhalf multiplies the residual by 2^11 first, which moves both limits down by 11
binades of e_v. The paper assumes i.i.d. mantissa bits (its Assumption 1) and RZ;
it holds for hi in FP16's normal range, e_v >= -14.

With the kernels' round-to-nearest, |v - hi| is at most half an FP16 ulp: the
residual sits one binade lower with the same law for its leading zeros (counted
from m_11), so P_{u+gu} is about the paper's P_{u+gu}(e_v - 1), twice its value;
RN's zero threshold (2^-25, not 2^-24) moves down too, so P_u stays about the
paper's. :func:`underflow_theory` gives the paper's RZ sums and an exact RN count.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from .exp_rand import exp_rand
from .rounding import FP16, round_to
from .split import HALF_LO_SCALE, split

B_F16 = 15   # FP16 exponent bias
L_F16 = 10   # FP16 explicit mantissa bits
L_F32 = 23   # FP32 explicit mantissa bits
MAX_L0 = L_F32 - L_F16   # l0 counts zeros among the 13 bits m_12 .. m_0
SCALE_BINADES = 11       # halfhalf's 2^11
FP16_MIN_NORMAL = 2.0 ** (1 - B_F16)
FP16_MIN_NORMAL_EXPONENT = 1 - B_F16              # -14
FP16_MIN_SUBNORMAL_EXPONENT = 1 - B_F16 - L_F16   # -24
RN_RESIDUAL_MAX = 1 << (L_F32 - L_F16 - 1)        # |v - hi| <= 2^12 ulp(v) under RN


def p_l0(n: int) -> Fraction:
    """P(l0 = n) under Assumption 1 (the paper's equation for P(l0 = n))."""
    if n < 0 or n > MAX_L0:
        return Fraction(0)
    if n < MAX_L0:
        return Fraction(1, 2 ** (n + 1))
    return Fraction(1, 2 ** MAX_L0)


def _paper_tail(first: int) -> Fraction:
    return sum((p_l0(n) for n in range(max(first, 0), MAX_L0 + 1)), Fraction(0))


def _rn_residual_law(limit: Fraction, inclusive: bool) -> Fraction:
    """P(1 <= K <= limit) (or K < limit) for K = |v - hi| / ulp(v) under RN.

    With M = m_12..m_0, K = M below 2^12 and 2^13 - M above it: for a uniform
    mantissa K is 0 and 2^12 with probability 2^-13 each, and each 1 <= K < 2^12
    with probability 2^-12.
    """
    top = RN_RESIDUAL_MAX
    largest = math.floor(limit) if inclusive else math.ceil(limit) - 1
    p = Fraction(max(min(largest, top - 1), 0), top)
    if top <= largest:
        p += Fraction(1, 2 * top)
    return p


def underflow_theory(e_v: int, scaled: bool = False,
                     rounding: str = "rz") -> tuple[Fraction, Fraction]:
    """(P_u(e_v), P_{u+gu}(e_v)); scaled=True for halfhalf's 2^11.

    rounding="rz": the paper's sums over P(l0 = n), exactly as published.
    rounding="rn": the same question for the kernels' round-to-nearest conversions,
    counted exactly over the residual's law (no i.i.d.-bits approximation needed).
    """
    shift = SCALE_BINADES if scaled else 0
    if rounding == "rz":
        # Gradual underflow: e_v - (l0 + l_F16 + 1) + shift < 1 - b_F16.
        gradual_from = e_v - L_F16 + B_F16 - 2 + 1 + shift
        # Underflow: e_v - (l0 + l_F16 + 1) + shift < 1 - b_F16 - l_F16.
        underflow_from = e_v + B_F16 - 2 + 1 + shift
        return _paper_tail(underflow_from), _paper_tail(gradual_from)
    if rounding != "rn":
        raise ValueError(f"rounding must be 'rz' or 'rn', got {rounding!r}")
    # The stored lo is (K ulp(v) 2^shift) rounded to FP16, ulp(v) = 2^(e_v - 23).
    unit = Fraction(2) ** (e_v - L_F32 + shift)
    half_min_subnormal = Fraction(2) ** (FP16_MIN_SUBNORMAL_EXPONENT - 1)
    # RN gives 0 up to half the smallest subnormal (the tie goes to even, 0) and stays
    # subnormal below 2^-14 minus half a subnormal step (that tie goes up to 2^-14).
    p_u = _rn_residual_law(half_min_subnormal / unit, inclusive=True)
    p_gu = _rn_residual_law((Fraction(2) ** FP16_MIN_NORMAL_EXPONENT - half_min_subnormal) / unit,
                            inclusive=False)
    return p_u, p_gu


def underflow_sampled(e_v: int, scaled: bool = False, rounding: str = "rz",
                      samples: int = 1 << 16, rng=None) -> tuple[float, float]:
    """(P_u, P_{u+gu}) measured on exp_rand(e_v, e_v) samples.

    rounding="rz": the paper's setting, hi and lo truncated to FP16 (NumPy model).
    rounding="rn": the kernels' split ("half" when scaled, else "markidis") through the
    library. Underflow: a nonzero residual v - hi stored as lo = 0; gradual underflow:
    stored with |lo| < 2^-14. v = hi loses nothing and counts as neither; samples whose
    hi overflowed are left out.
    """
    x = exp_rand((samples,), e_v, e_v, rng)
    x64 = x.astype(np.float64)
    if rounding == "rz":
        hi = round_to(x64, FP16, "rz")
        lo = round_to((x64 - hi) * (HALF_LO_SCALE if scaled else 1.0), FP16, "rz")
    elif rounding == "rn":
        hi, lo = split(x, "half" if scaled else "markidis")
        hi = hi.astype(np.float64)
    else:
        raise ValueError(f"rounding must be 'rz' or 'rn', got {rounding!r}")
    usable = np.isfinite(hi)
    if not np.any(usable):
        return float("nan"), float("nan")
    lost = (x64 != hi)[usable]
    lo = np.abs(np.asarray(lo, dtype=np.float64)[usable])
    return float(np.mean(lost & (lo == 0.0))), float(np.mean(lost & (lo < FP16_MIN_NORMAL)))
