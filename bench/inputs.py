"""Test matrices, generated with NumPy from a seed so that every process (this one and the JAX worker)
builds bit-identical operands for the same case and all methods are judged on the same inputs."""
import zlib

import numpy as np

# The paper's exponent-range types (§ exp_rand): per type, the exponent range of A and of B.
EXP_TYPES = {
    1: ((-15, 14), (-15, 14)),
    2: ((-15, 14), (-100, -35)),
    3: ((-35, -15), (-35, -15)),
    4: ((-100, -35), (-100, -35)),
}
FP32_EXPONENT_BIAS = 127
FP32_MANTISSA_BITS = 23


def case_seed(*parts):
    """A stable seed from a case's description (crc32: the same in every process and Python version)."""
    return zlib.crc32(":".join(str(p) for p in parts).encode())


def urand(shape, seed):
    """Uniform(-1, 1) in float32: 2r - 1 is exact in float32 for r on the 2^-24 grid that NumPy draws."""
    r = np.random.default_rng(seed).random(shape, dtype=np.float32)
    r *= 2
    r -= 1
    return r


def exp_rand(shape, lo, hi, seed):
    """The paper's exp_rand(lo, hi): sign ±1, exponent ~ UniformInt[lo, hi], mantissa bits ~ UniformInt[0, 2^23).

    Built from the bit fields, so every element is exactly sign·(1 + j·2^-23)·2^e (no rounding anywhere).
    """
    if not (-126 <= lo <= hi <= 127):
        raise ValueError(f"exponents [{lo}, {hi}] leave the normal float32 range")
    rng = np.random.default_rng(seed)
    sign = rng.integers(0, 2, shape, dtype=np.uint32) << 31
    biased = (rng.integers(lo, hi + 1, shape, dtype=np.int32) + FP32_EXPONENT_BIAS).astype(np.uint32)
    mantissa = rng.integers(0, 1 << FP32_MANTISSA_BITS, shape, dtype=np.uint32)
    return (sign | (biased << FP32_MANTISSA_BITS) | mantissa).view(np.float32)


def urand_pair(m, k, n, seed):
    """A (m×k) and B (k×n), urand(-1, 1), from one case seed."""
    return urand((m, k), case_seed(seed, "A")), urand((k, n), case_seed(seed, "B"))


def exp_pair(exp_type, m, k, n, seed):
    """A (m×k) and B (k×n) of the paper's exponent type 1–4."""
    (alo, ahi), (blo, bhi) = EXP_TYPES[exp_type]
    return exp_rand((m, k), alo, ahi, case_seed(seed, "A")), exp_rand((k, n), blo, bhi, case_seed(seed, "B"))


def rows_scaled(m, k, n, lo, hi, seed):
    """urand A whose row i is scaled by 2^e_i, e_i ~ UniformInt[lo, hi] (exact), and urand B."""
    a, b = urand_pair(m, k, n, seed)
    e = np.random.default_rng(case_seed(seed, "rows")).integers(lo, hi + 1, (m, 1))
    return np.ldexp(a, e.astype(np.int32)).astype(np.float32), b


def outlier_rows(m, k, n, exponent, seed):
    """urand A with one element per row, at a random column, replaced by 2^exponent, and urand B."""
    a, b = urand_pair(m, k, n, seed)
    cols = np.random.default_rng(case_seed(seed, "outliers")).integers(0, k, m)
    a[np.arange(m), cols] = np.float32(2.0 ** exponent)
    return a, b


def relative_residual_np(c, ref):
    """‖c − ref‖_F / ‖ref‖_F in float64 (NaN or Inf in c gives NaN or Inf)."""
    ref = np.asarray(ref, dtype=np.float64)
    return float(np.linalg.norm(np.asarray(c, dtype=np.float64) - ref) / np.linalg.norm(ref))


def throughput_pair(m, k, n):
    """The checked operand set of a throughput case (the same in the parent and in the XLA worker)."""
    return urand_pair(m, k, n, seed=case_seed("throughput", m, k, n))


def energy_pair(n):
    return urand_pair(n, n, n, seed=case_seed("energy", n))
