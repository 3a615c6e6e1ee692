"""hypothesis profiles and strategies shared by the numerics property tests.

Profiles (pick one with ECGEMM_HYPOTHESIS_PROFILE): "ci" (default) is derandomized,
so every run tries the same examples; "dev" explores afresh each run; "gpu-long" is
the long exploration for a GPU machine. The numerics tests apply the chosen profile
themselves (``@PROFILE``), leaving hypothesis's global default to other test files.
"""

import math
import os

import numpy as np
from hypothesis import HealthCheck, assume, settings
from hypothesis import strategies as st

from ecgemm.numerics import exp_rand

U = 2.0 ** -24  # FP32's unit roundoff

# Per product, tf32tf32 and halfhalf err by up to ~8u|a||b| (the dropped lo·lo, 4u, and
# each part's 1-ulp representation error, 2u each): at k = 1 that is 8u|ab| against
# SGEMM's single u/2 rounding, so no fixed ratio to SGEMM can hold for small k. The
# accepted error is the larger of 1.25 x SGEMM's and MAGMA's bound with this c.
MAGMA_C = 8.0
SGEMM_RATIO = 1.25
# exp_rand exponents inside which the corrected modes promise SGEMM accuracy. tf32tf32:
# below 2^-113 lo is a TF32 subnormal (tests/test_numerics_tables.py); halfhalf: the
# paper's type 1, exp_rand(-15, 14), and below 2^15 so that nothing reaches 65520.
# auto: tf32tf32's range (its fall-back route), halfhalf's speed where rows fit FP16's window.
DOCUMENTED_RANGE = {"tf32tf32": (-113, 127), "halfhalf": (-15, 14), "auto": (-113, 127)}

_COMMON = {"deadline": None, "print_blob": True,
           "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large]}
settings.register_profile("ci", max_examples=60, derandomize=True, **_COMMON)
settings.register_profile("dev", max_examples=200, **_COMMON)
settings.register_profile("gpu-long", max_examples=2000, **_COMMON)
PROFILE = settings.get_profile(os.environ.get("ECGEMM_HYPOTHESIS_PROFILE", "ci"))


@st.composite
def exponent_ranges(draw, low, high, min_product_exponent, max_product_exponent):
    """((a_A, b_A), (a_B, b_B)): exp_rand ranges for A and B inside [low, high].

    Every product a·b then lies in [2^min_product_exponent, 2^max_product_exponent).
    The widths mix narrow ranges and wide ones.
    """
    widths = st.sampled_from([0, 1, 4, 20, 300])
    a_lo = draw(st.integers(low, high))
    a_hi = min(high, a_lo + draw(widths))
    b_low = max(low, min_product_exponent - a_lo)
    b_high = min(high, max_product_exponent - 2 - a_hi)  # |m_a m_b| < 4
    assume(b_low <= b_high)
    b_lo = draw(st.integers(b_low, b_high))
    b_hi = min(b_high, b_lo + draw(widths))
    return (a_lo, a_hi), (b_lo, b_hi)


def safe_product_exponent(k: int) -> int:
    """e such that k products below 2^e, their sums, alpha·AB (|alpha| <= 3) and beta·C
    on top of it (|C| <= |AB|, |beta| <= 1) all stay below FP32's overflow at 2^128."""
    return 128 - math.ceil(math.log2(k)) - 3


def accepted_error(res_sgemm, a, b, c, alpha, beta):
    """The error a corrected mode may have: max(1.25 x SGEMM's, MAGMA's bound, c = 8)."""
    return max(SGEMM_RATIO * res_sgemm, magma_bound(a, b, c, alpha, beta, MAGMA_C))


@st.composite
def mixed_row_operands(draw, sides=st.integers(1, 8)):
    """(A, B) whose rows of A, and columns of B, each take one of a few exp_rand ranges
    of their own: widths of 0 to 29 binades placed anywhere in [2^-50, 2^30), so that
    products stay normal and finite at any k used here. AUTO scales each row and column
    separately."""
    m, n = draw(sides), draw(sides)
    k = draw(st.sampled_from([1, 7, 64, 300]))
    rng = np.random.default_rng(draw(st.integers(0, 2 ** 32 - 1)))

    def ranges():
        out = []
        for _ in range(draw(st.integers(1, 5))):
            width = draw(st.sampled_from([0, 3, 12, 29]))
            low = draw(st.integers(-50, 29 - width))
            out.append((low, low + width))
        return out

    def slab(count, shape, axis):
        choices = ranges()
        picks = rng.integers(0, len(choices), count)
        return np.concatenate([exp_rand(shape, *choices[p], rng) for p in picks], axis=axis)

    return slab(m, (1, k), 0), slab(n, (k, 1), 1)


def exp_rand_operands(shape_a, shape_b, ranges, seed):
    rng = np.random.default_rng(seed)
    (a_lo, a_hi), (b_lo, b_hi) = ranges
    return exp_rand(shape_a, a_lo, a_hi, rng), exp_rand(shape_b, b_lo, b_hi, rng)


@st.composite
def special_operands(draw, sides, ranges, rates, specials):
    """(a, b, rng): exp_rand operands m x k and k x n (sides drawn from `sides`), each element
    replaced, with a probability drawn from `rates` for each operand, by one of `specials`;
    rng goes on from the operands' seed."""
    m, n, k = draw(sides), draw(sides), draw(sides)
    seed = draw(st.integers(0, 2 ** 32 - 1))
    a, b = exp_rand_operands((m, k), (k, n), ranges, seed)
    rng = np.random.default_rng(seed)
    values = np.asarray(specials, dtype=np.float32)
    for operand in (a, b):
        hits = rng.random(operand.shape) < draw(st.sampled_from(rates))
        operand[hits] = rng.choice(values, hits.sum())
    return a, b, rng


def magma_bound(a, b, c, alpha, beta, c_factor):
    """c·u·sqrt(k+2)·|alpha|·||A||_F·||B||_F + 2|beta|·||C||_F·u (MAGMA's gemm check)."""
    k = a.shape[1]
    norm = np.linalg.norm
    bound = c_factor * U * math.sqrt(k + 2) * abs(alpha) * norm(a.astype(np.float64)) \
        * norm(b.astype(np.float64))
    if beta != 0.0:
        bound += 2 * abs(beta) * norm(c.astype(np.float64)) * U
    return bound
