"""Rounding onto binary floating-point grids, vectorised in NumPy.

The lab needs roundings the library does not implement: the paper's round-toward-zero
what-ifs (its Table 2) and the Tensor Core accumulator's truncation to a few bits more
than FP32. Values travel as float64 arrays holding numbers of the target format, and
a sum travels as an unevaluated pair ``value + tail`` (from :func:`two_sum`) so that
the rounding of the exact sum is correct, not a double rounding.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

ROUNDINGS = ("rn", "rna", "rz")


@dataclass(frozen=True)
class Format:
    """A binary floating-point format with gradual underflow."""

    name: str
    precision: int  # significant bits, the implicit one included
    emin: int       # exponent of the smallest normal number
    emax: int       # exponent of the largest finite binade

    @property
    def max_finite(self) -> float:
        return float(np.ldexp(2.0 - np.ldexp(1.0, 1 - self.precision), self.emax))


FP32 = Format("fp32", 24, -126, 127)
FP16 = Format("fp16", 11, -14, 15)
TF32 = Format("tf32", 11, -126, 127)


def accumulator_format(extra_bits: int) -> Format:
    """FP32's range with `extra_bits` more significant bits (a Tensor Core accumulator)."""
    if extra_bits < 0 or extra_bits > 20:
        raise ValueError(f"extra_bits must lie in [0, 20], got {extra_bits}")
    return Format(f"fp32+{extra_bits}", FP32.precision + extra_bits, FP32.emin, FP32.emax)


def two_sum(a: np.ndarray, b: np.ndarray):
    """(s, t) with s = fl(a + b) and s + t = a + b exactly (Knuth; float64, no overflow)."""
    with np.errstate(invalid="ignore", over="ignore"):  # Inf operands: the tail is unused
        s = a + b
        bv = s - a
        av = s - bv
        return s, (a - av) + (b - bv)


def quantum(magnitude: np.ndarray, fmt: Format) -> np.ndarray:
    """Spacing of `fmt`'s grid in the binade of each (non-negative, finite) magnitude."""
    _, e = np.frexp(magnitude)  # magnitude = f * 2**e with f in [0.5, 1)
    return np.ldexp(1.0, np.maximum(e - 1, fmt.emin) - (fmt.precision - 1))


def round_to(value, fmt: Format, rounding: str, tail: np.ndarray | None = None) -> np.ndarray:
    """Round ``value + tail`` (exact) onto `fmt` with IEEE semantics; returns float64.

    rounding: "rn" (nearest, ties to even), "rna" (nearest, ties away from zero) or
    "rz" (toward zero). Overflow gives ±Inf for the nearest roundings and ±max_finite
    for "rz"; the sign of a zero result is the sign of `value`. `tail` must be below
    half an ulp of `value` in float64, as :func:`two_sum` returns it. Inf and NaN pass
    through.
    """
    if rounding not in ROUNDINGS:
        raise ValueError(f"rounding must be one of {ROUNDINGS}, got {rounding!r}")
    value = np.asarray(value, dtype=np.float64)
    finite = np.isfinite(value)
    mag = np.where(finite, np.abs(value), 0.0)
    # The tail measured along |value|: positive means the exact magnitude is larger.
    t = np.zeros_like(mag) if tail is None else np.where(finite, tail * np.sign(value), 0.0)
    q = quantum(mag, fmt)
    n = mag / q  # exact: a power-of-two scaling
    whole = np.floor(n)
    frac = n - whole
    if rounding == "rz":
        steps = whole
        # On a grid point with the exact value just below it, truncation steps down to the
        # grid of the binade below (half the spacing when mag is a power of two).
        on_grid_below = (frac == 0.0) & (t < 0.0) & (mag > 0.0)
        r = steps * q
        below = quantum(np.nextafter(mag, 0.0), fmt)
        r = np.where(on_grid_below, mag - below, r)
        r = np.minimum(r, fmt.max_finite)
    else:
        if rounding == "rn":
            steps = np.rint(n)  # ties to even
        else:
            steps = np.floor(n + 0.5)  # ties away from zero (n + 0.5 is exact here)
        midpoint = frac == 0.5
        # A midpoint of `value` is no tie when the tail decides the side.
        steps = np.where(midpoint & (t > 0.0), whole + 1.0, steps)
        steps = np.where(midpoint & (t < 0.0), whole, steps)
        r = steps * q
        r = np.where(r > fmt.max_finite, np.inf, r)
    return np.where(finite, np.copysign(r, value), value)


def round_sum(a: np.ndarray, b: np.ndarray, fmt: Format, rounding: str) -> np.ndarray:
    """Correctly rounded a + b (float64 arrays of representable values) onto `fmt`."""
    s, t = two_sum(a, b)
    return round_to(s, fmt, rounding, tail=t)
