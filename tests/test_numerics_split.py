"""ecgemm.numerics.split (libecgemm's host split code) bit for bit against a model.

The model below is written from docs/numerics.md (section 1) alone, in float64
arithmetic on each value's binade, a different route from split.cuh's integer code;
FP16 rounding is cross-checked against NumPy's own float16 conversion as a second oracle.
"""

import numpy as np
import pytest

numerics = pytest.importorskip("ecgemm.numerics", reason="the ecgemm extension is not built")

F32_MAX = float(np.finfo(np.float32).max)
FP16_OVERFLOW = 65520.0  # 65504 + half an FP16 ulp: the smallest value RN sends to Inf
LO_SCALE = {"tf32": 1.0, "half": 2048.0, "markidis": 1.0}
METHODS = tuple(LO_SCALE)


def _binade_exponent(v32):
    """Exponent of each float32's binade (-126 for subnormals and zero)."""
    biased = (v32.view(np.uint32) >> np.uint32(23)) & np.uint32(0xFF)
    return np.where(biased == 0, -126, biased.astype(np.int64) - 127)


def _to_grid(v32, kept_bits, min_exponent, ties_away):
    """Round float32 values to `kept_bits` fraction bits, binades clamped below."""
    exponent = np.maximum(_binade_exponent(v32), min_exponent)
    step = np.exp2((exponent - kept_bits).astype(np.float64))
    units = np.abs(v32.astype(np.float64)) / step
    rounded = np.floor(units + 0.5) if ties_away else np.round(units)  # np.round: ties to even
    return rounded, units, step


def model_tf32(v32):
    """tf32_rna for finite v: 10 fraction bits, ties away; truncate if it would overflow."""
    rounded, units, step = _to_grid(v32, 10, -126, ties_away=True)
    magnitude = rounded * step
    magnitude = np.where(magnitude > F32_MAX, np.floor(units) * step, magnitude)
    return np.copysign(magnitude, v32.astype(np.float64))


def model_fp16(v32):
    """IEEE binary16 round-to-nearest-even with subnormals, overflow to Inf."""
    rounded, _, step = _to_grid(v32, 10, -14, ties_away=False)
    magnitude = rounded * step
    magnitude = np.where(magnitude > 65504.0, np.inf, magnitude)
    return np.copysign(magnitude, v32.astype(np.float64))


def model_split(x, method):
    """(hi, lo) float32 per docs/numerics.md, lo = +0 for non-finite x or hi."""
    to_part = model_tf32 if method == "tf32" else model_fp16
    finite_x = np.isfinite(x)
    safe = np.where(finite_x, x, np.float32(0))
    with np.errstate(invalid="ignore"):  # widening a signalling NaN raises "invalid"
        hi = np.where(finite_x, to_part(safe), x.astype(np.float64))
    keep = np.isfinite(hi)
    # x - hi is exact in float32 (and here in float64); the 2^11 scaling is exact too.
    residual = (np.where(keep, safe - hi, 0.0) * LO_SCALE[method]).astype(np.float32)
    lo = np.where(keep, to_part(residual), 0.0)
    return hi.astype(np.float32), lo.astype(np.float32)


def assert_same_bits(x, method):
    hi, lo = numerics.split(x, method)
    want_hi, want_lo = model_split(x, method)
    nan = np.isnan(x)
    assert np.array_equal(np.isnan(hi), nan), "hi must be NaN exactly where x is"
    bad_hi = np.flatnonzero(~nan & (hi.view(np.uint32) != want_hi.view(np.uint32)))
    bad_lo = np.flatnonzero(lo.view(np.uint32) != want_lo.view(np.uint32))
    for name, bad, got, want in (("hi", bad_hi, hi, want_hi), ("lo", bad_lo, lo, want_lo)):
        if bad.size:
            i = bad[0]
            pytest.fail(f"{method} {name} differs at {bad.size} values; first: x = {x[i]!r} "
                        f"(0x{x.view(np.uint32)[i]:08x}): got {got[i]!r}, model {want[i]!r}")


def from_bits(*bits):
    return np.array(bits, dtype=np.uint32).view(np.float32)


def edge_values():
    """Zeros, subnormals, limits, specials, and rounding ties of TF32 and FP16."""
    named = [0.0, 1.0, 2.0 ** -14, 2.0 ** -24, 2.0 ** -25, 3 * 2.0 ** -25, 2.0 ** -36, 2.0 ** -37,
             2.0 ** -126, 2.0 ** -137, 2.0 ** -136, 65504.0, 65505.0, 65519.0, FP16_OVERFLOW,
             65536.0, 1 + 2.0 ** -11, 1 + 3 * 2.0 ** -11, 1 + 2.0 ** -11 + 2.0 ** -23, F32_MAX,
             np.inf, 3.14159265, 1e-30, 1e30]
    values = np.array(named, dtype=np.float32)
    with np.errstate(over="ignore"):  # FLT_MAX's successor is Inf
        up = np.nextafter(values, np.float32(np.inf))
    values = np.concatenate([values, up, np.nextafter(values, np.float32(0))])
    special_bits = from_bits(0x00000001, 0x007FFFFF, 0x00001000, 0x00001FFF, 0x00003000,
                             0x7F7FF000, 0x7F7FEFFF, 0x7F7FFFFF, 0x7F800000, 0x7FC00000,
                             0x7F800001, 0x7FFFFFFF, 0x477FF000, 0x477FEFFF, 0x38800000)
    # TF32 ties (low 13 bits 0x1000) and their neighbours, in many binades, both kept-LSB parities.
    exponents = np.arange(0, 255, 7, dtype=np.uint32) << np.uint32(23)
    low = np.array([0x0FFF, 0x1000, 0x1001, 0x3000, 0x2FFF, 0x3001], dtype=np.uint32)
    tie_bits = (exponents[:, None] | np.uint32(0x2AA000) | low[None, :]).reshape(-1)
    everything = np.concatenate([values, special_bits, tie_bits.view(np.float32)])
    return np.concatenate([everything, -everything])


@pytest.mark.parametrize("method", METHODS)
def test_edge_values_bit_exact(method):
    assert_same_bits(edge_values(), method)


@pytest.mark.parametrize("method", METHODS)
def test_random_bit_patterns_bit_exact(method):
    # Every float32 class: NaNs with payloads, Infs, subnormals, normals of any exponent.
    bits = np.random.default_rng(20240).integers(0, 1 << 32, size=1 << 20, dtype=np.uint64)
    assert_same_bits(bits.astype(np.uint32).view(np.float32), method)


@pytest.mark.parametrize("method", METHODS)
def test_every_mantissa_of_one_binade_bit_exact(method):
    x = numerics.mantissa.binade(0)  # all 2^23 values of [1, 2)
    assert_same_bits(x, method)
    assert_same_bits(-x * np.float32(2.0 ** -14), method)  # FP16's lowest normal binade


@pytest.mark.parametrize("method", METHODS)
def test_every_exponent_bit_exact(method):
    rng = np.random.default_rng(7)
    x = np.concatenate([numerics.exp_rand((4096,), e, e, rng) for e in range(-126, 128)])
    assert_same_bits(x, method)


def test_fp16_model_agrees_with_numpy_float16():
    # A check of the test's own model against an independent implementation.
    bits = np.random.default_rng(3).integers(0, 1 << 32, size=1 << 18, dtype=np.uint64)
    x = np.concatenate([bits.astype(np.uint32).view(np.float32), edge_values()])
    x = x[np.isfinite(x)]
    with np.errstate(over="ignore"):  # NumPy warns when it rounds to Inf, as it should
        numpy_fp16 = x.astype(np.float16).astype(np.float32)
    assert np.array_equal(model_fp16(x).astype(np.float32).view(np.uint32),
                          numpy_fp16.view(np.uint32))


def test_lo_of_non_finite_is_positive_zero():
    x = from_bits(0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00000, 0x7F800001)
    for method in METHODS:
        hi, lo = numerics.split(x, method)
        assert np.all(lo.view(np.uint32) == 0), method
        assert np.array_equal(hi[:2], x[:2]) and np.all(np.isnan(hi[2:])), method


@pytest.mark.parametrize("method", ("half", "markidis"))
def test_fp16_overflow_threshold(method):
    below, at = np.nextafter(np.float32(FP16_OVERFLOW), np.float32(0)), np.float32(FP16_OVERFLOW)
    hi, lo = numerics.split(np.array([below, at, -at], dtype=np.float32), method)
    assert hi[0] == 65504.0 and np.isfinite(lo[0])
    assert hi[1] == np.inf and hi[2] == -np.inf and np.all(lo[1:] == 0)


def test_tf32_rounding_past_flt_max_truncates():
    x = np.array([F32_MAX, -F32_MAX], dtype=np.float32)
    hi, lo = numerics.split(x, "tf32")
    assert np.array_equal(hi.view(np.uint32), np.array([0x7F7FE000, 0xFF7FE000], np.uint32))
    # lo = tf32(0x1FFF ulps) rounds to 2^13 ulps: the split is within one ulp of x.
    error = np.abs(hi.astype(np.float64) + lo - x)
    assert np.all(error == numerics.ulp(x))


def test_split_rejects_other_dtypes_and_methods():
    with pytest.raises(TypeError, match="float32"):
        numerics.split(np.ones(3), "tf32")
    with pytest.raises(ValueError, match="method"):
        numerics.split(np.ones(3, np.float32), "bf16")


def test_split_keeps_shape():
    x = numerics.exp_rand((3, 5, 2), -3, 3, 1)
    hi, lo = numerics.split(x, "half")
    assert hi.shape == lo.shape == x.shape and hi.dtype == lo.dtype == np.float32


def test_tf32_hi_of_a_nan_is_still_a_nan_in_tf32s_19_bits():
    # A TF32 Tensor Core reads only the top 19 bits (seen on an H100): a NaN whose
    # payload sat in the dropped bits read as Inf until split.cuh quieted it.
    x = from_bits(0x7F800001, 0xFF800FFF, 0x7FC00000)
    hi, _ = numerics.split(x, "tf32")
    read = (hi.view(np.uint32) & np.uint32(0xFFFFE000)).view(np.float32)
    assert np.all(np.isnan(read))
