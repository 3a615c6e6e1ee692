"""How many mantissa bits hi + lo keep (the paper's Tables 1 and 2).

A value is kept to ``23 - L`` of its 23 explicit mantissa bits when the split's error
|x - (hi + lo)| takes L bits to write in units of x's last place: an exact split keeps
23, an error of 1 ulp keeps 22, 2 or 3 ulps keep 21. Enumerating all 2^23 mantissas
of one binade gives the exact distribution the paper derives under its Assumption 1.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from .split import NATIVE_ROUNDING, reconstruct, split, split_variant

MANTISSA_BITS = 23
NOTHING_KEPT = -1  # not even the leading (implicit) bit survives, or hi overflowed
_ENUMERATION_CHUNK = 1 << 20


def _split_for(x: np.ndarray, method: str, rounding: str | None):
    if rounding is None or rounding == NATIVE_ROUNDING[method]:
        return split(x, method)
    return split_variant(x, method, rounding)


def ulp(x: np.ndarray) -> np.ndarray:
    """FP32's spacing at each finite float32 value (2^-149 for subnormals and zero)."""
    _, e = np.frexp(np.abs(x.astype(np.float64)))
    return np.ldexp(1.0, np.maximum(e - 1, -126) - MANTISSA_BITS)


def mantissa_kept(x, method: str, rounding: str | None = None) -> np.ndarray:
    """Explicit mantissa bits of each finite float32 x that hi + lo keep (int array).

    23 - bit_length(|x - (hi + lo)| / ulp(x)), floored at -1 (NOTHING_KEPT), which is
    also the answer when hi is not finite. rounding: None for the kernels' own split,
    or "rn" / "rna" / "rz" for the lab's model of that rounding in both conversions.
    """
    x = np.asarray(x)
    if x.dtype != np.float32:
        raise TypeError(f"mantissa_kept takes float32 data, got {x.dtype}")
    if not np.all(np.isfinite(x)):
        raise ValueError("mantissa_kept is defined for finite x only")
    hi, lo = _split_for(x, method, rounding)
    with np.errstate(invalid="ignore"):
        error = np.abs(x.astype(np.float64) - reconstruct(hi, lo, method))
    lost_ulps = error / ulp(x)
    _, bit_length = np.frexp(np.where(np.isfinite(lost_ulps), lost_ulps, 0.0))
    kept = MANTISSA_BITS - bit_length
    kept = np.where(np.isfinite(lost_ulps), kept, NOTHING_KEPT)
    return np.maximum(kept, NOTHING_KEPT).astype(np.int64)


def binade(exponent: int = 0, start: int = 0, stop: int = 1 << MANTISSA_BITS) -> np.ndarray:
    """The float32 values (1 + m / 2^23) · 2^exponent for mantissas m in [start, stop)."""
    if not -126 <= exponent <= 127:
        raise ValueError(f"exponent must be a normal FP32 exponent, got {exponent}")
    m = np.arange(start, stop, dtype=np.uint32)
    return (np.uint32((exponent + 127) << MANTISSA_BITS) | m).view(np.float32)


def kept_length_distribution(method: str = "half", rounding: str | None = None,
                             exponent: int = 0) -> dict[int, Fraction]:
    """{kept bits: probability} over all 2^23 mantissas of the binade [2^e, 2^(e+1)).

    Exact fractions: the paper's Table 1 (RN) is {23: 3/4, 22: 1/4} and Table 2 (RZ)
    {23: 1/2, 22: 1/4, 21: 1/4} for method "half" at exponent 0.
    """
    counts = np.zeros(MANTISSA_BITS + 2, dtype=np.int64)  # index kept + 1
    total = 1 << MANTISSA_BITS
    for start in range(0, total, _ENUMERATION_CHUNK):
        kept = mantissa_kept(binade(exponent, start, start + _ENUMERATION_CHUNK), method, rounding)
        counts += np.bincount(kept + 1, minlength=counts.size)
    return {bits - 1: Fraction(int(c), total) for bits, c in enumerate(counts) if c}


def expected_kept_length(distribution: dict[int, Fraction]) -> Fraction:
    """Mean of a kept-length distribution (22.75 for Table 1, 22.25 for Table 2)."""
    return sum((Fraction(bits) * p for bits, p in distribution.items()), Fraction(0))
