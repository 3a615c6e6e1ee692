"""The hi/lo split of FP32 values, as the kernels compute it (docs/numerics.md, section 1).

:func:`split` calls libecgemm's host build of ``split.cuh``, the one source the
kernels compile, so the lab studies the library's numerics rather than a copy of
them. :func:`split_variant` is the lab's own NumPy model for the roundings the
library does not implement (the paper's round-toward-zero what-ifs).
"""

from __future__ import annotations

import numpy as np

from .rounding import FP16, TF32, Format, round_to

METHODS = ("tf32", "half", "markidis")

# halfhalf stores lo multiplied by 2^11, which keeps it out of FP16's subnormal range.
HALF_LO_SCALE = 2.0 ** 11
LO_SCALE = {"tf32": 1.0, "half": HALF_LO_SCALE, "markidis": 1.0}

# The rounding each method's conversions use in the kernels.
NATIVE_ROUNDING = {"tf32": "rna", "half": "rn", "markidis": "rn"}
_FORMAT = {"tf32": TF32, "half": FP16, "markidis": FP16}


def _check_method(method: str) -> None:
    if method not in METHODS:
        raise ValueError(f"method must be one of {METHODS}, got {method!r}")


def _as_float32(x) -> np.ndarray:
    x = np.asarray(x)
    if x.dtype != np.float32:
        raise TypeError(f"the split works on float32 data (what the kernels see), got {x.dtype}; "
                        "convert explicitly, e.g. np.float32(x)")
    return x


def split(x, method: str):
    """(hi, lo) float32 arrays of x's shape, bit for bit what the kernels store.

    method: "tf32" (hi = tf32_rna(x), lo = tf32_rna(x - hi)), "half" (hi = fp16_rn(x),
    lo = fp16_rn((x - hi) * 2^11), lo returned still scaled) or "markidis" (hi =
    fp16_rn(x), lo = fp16_rn(x - hi)). Non-finite x, or a hi that overflowed, has lo = 0.
    Needs the compiled extension ``ecgemm._ecgemm``.
    """
    _check_method(method)
    x = _as_float32(x)
    try:
        from .. import _ecgemm  # the extension holds libecgemm's host split functions
    except ImportError as exc:
        raise ImportError("ecgemm.numerics.split needs the compiled extension ecgemm._ecgemm "
                          "(pip install the package); it runs libecgemm's own split code") from exc
    flat = np.ascontiguousarray(x).reshape(-1)
    hi, lo = _ecgemm._split_host(method, flat)
    return (np.asarray(hi, dtype=np.float32).reshape(x.shape),
            np.asarray(lo, dtype=np.float32).reshape(x.shape))


def split_variant(x, method: str, rounding: str):
    """(hi, lo) as :func:`split` would give them if both conversions used `rounding`.

    rounding: "rn", "rna" or "rz". The kernels implement only
    ``NATIVE_ROUNDING[method]``; this NumPy model answers the paper's what-ifs. Overflow
    follows IEEE (the kernels' tf32 guard against rounding up past FLT_MAX is not
    modelled); non-finite x or hi gives lo = 0 as in the kernels.
    """
    _check_method(method)
    x = _as_float32(x)
    fmt: Format = _FORMAT[method]
    with np.errstate(invalid="ignore"):  # widening a signalling NaN raises "invalid"
        x64 = x.astype(np.float64)
    hi = round_to(x64, fmt, rounding)
    finite = np.isfinite(hi)
    residual = np.where(finite, x64 - hi, 0.0) * LO_SCALE[method]  # exact in float64
    lo = np.where(finite, round_to(residual, fmt, rounding), 0.0)
    return hi.astype(np.float32), lo.astype(np.float32)


def reconstruct(hi: np.ndarray, lo: np.ndarray, method: str) -> np.ndarray:
    """hi + lo / LO_SCALE in float64: exact, the value the GEMM's products see."""
    _check_method(method)
    return hi.astype(np.float64) + lo.astype(np.float64) / LO_SCALE[method]
