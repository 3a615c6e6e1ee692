"""The paper's test matrices exp_rand(a, b) (docs/numerics.md, section 6)."""

from __future__ import annotations

import numbers

import numpy as np

FP32_EXPONENT_BIAS = 127
FP32_MANTISSA_BITS = 23
MIN_NORMAL_EXPONENT = -126
MAX_EXPONENT = 127


def exp_rand(shape, a: int, b: int, rng=None) -> np.ndarray:
    """float32 array of `shape`: sign · m · 2^e, e ~ UniformInt[a, b], m ~ Uniform[1, 2).

    The mantissa is uniform over FP32's 2^23 values in [1, 2) and the sign is ±1 with
    equal odds, so every element is a normal FP32 number: -126 <= a <= b <= 127.
    rng: a numpy Generator or anything ``numpy.random.default_rng`` accepts.
    """
    for name, v in (("a", a), ("b", b)):
        if not isinstance(v, numbers.Integral):
            raise TypeError(f"exp_rand: {name} must be an integer exponent, got {v!r}")
    if not MIN_NORMAL_EXPONENT <= a <= b <= MAX_EXPONENT:
        raise ValueError(f"exp_rand needs {MIN_NORMAL_EXPONENT} <= a <= b <= {MAX_EXPONENT} "
                         f"(normal FP32 exponents), got a={a}, b={b}")
    rng = np.random.default_rng(rng)
    exponent = rng.integers(a, b, endpoint=True, size=shape)
    mantissa = rng.integers(0, 1 << FP32_MANTISSA_BITS, size=shape, dtype=np.uint32)
    sign = rng.integers(0, 2, size=shape, dtype=np.uint32)
    biased = (exponent + FP32_EXPONENT_BIAS).astype(np.uint32)
    bits = (sign << np.uint32(31)) | (biased << np.uint32(FP32_MANTISSA_BITS)) | mantissa
    return bits.view(np.float32)
