"""Properties of the split and of the emulated GEMMs, searched by hypothesis (CPU)."""

import math

import numpy as np
import pytest

numerics = pytest.importorskip("ecgemm.numerics", reason="the ecgemm extension is not built")
from hypothesis import given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from _numerics_hypothesis import (DOCUMENTED_RANGE, PROFILE, accepted_error,  # noqa: E402
                                  exp_rand_operands, exponent_ranges, mixed_row_operands,
                                  safe_product_exponent, special_operands)

FP16_OVERFLOW = 65520.0
# Absolute error floor of hi + lo once lo sits in its format's subnormal range: half the
# subnormal spacing, unscaled (TF32 subnormals keep FP32's exponent and 10 bits).
ERROR_FLOOR = {"tf32": 2.0 ** -137, "half": 2.0 ** -25 / 2048, "markidis": 2.0 ** -25}
# (hi, lo) are both zero exactly for |x| up to (or below, for tf32's ties-away) this.
ZERO_THRESHOLD = {"tf32": 2.0 ** -137, "half": 2.0 ** -36, "markidis": 2.0 ** -25}

float32s = st.floats(width=32, allow_nan=True, allow_infinity=True, allow_subnormal=True)
methods = st.sampled_from(numerics.METHODS)


def split1(x, method):
    hi, lo = numerics.split(np.array([x], dtype=np.float32), method)
    return hi[0], lo[0]


@PROFILE
@given(float32s, methods)
def test_split_reconstructs_x_within_one_ulp_or_the_floor(x, method):
    x = np.float32(x)
    hi, lo = split1(x, method)
    if np.isnan(x):
        assert np.isnan(hi) and lo == 0
        return
    assert not np.isnan(hi) and not np.isnan(lo), "a split never makes a NaN"
    assert np.signbit(hi) == np.signbit(x), "hi keeps x's sign, zeros included"
    if method != "tf32" and abs(x) >= FP16_OVERFLOW or np.isinf(x):
        assert hi == (np.inf if x > 0 else -np.inf) and lo.view(np.uint32) == 0
        return
    assert np.isfinite(hi) and np.isfinite(lo)
    error = abs(float(x) - numerics.reconstruct(hi, lo, method))
    assert error <= max(float(numerics.ulp(x)), ERROR_FLOOR[method]), (x, hi, lo, error)


@PROFILE
@given(float32s, methods)
def test_parts_are_values_of_the_tensor_core_format(x, method):
    hi, lo = split1(np.float32(x), method)
    for part in (hi, lo):
        if not np.isfinite(part):
            continue
        if method == "tf32":
            assert part.view(np.uint32) & 0x1FFF == 0
        else:
            assert np.float32(np.float16(part)) == part


@PROFILE
@given(float32s, methods)
def test_splitting_hi_again_is_exact(x, method):
    hi, _ = split1(np.float32(x), method)
    if np.isfinite(hi):
        again_hi, again_lo = split1(hi, method)
        assert again_hi.view(np.uint32) == hi.view(np.uint32) and again_lo == 0


@PROFILE
@given(st.floats(0.0, 2.0 ** -20, width=32), methods)
def test_nothing_survives_exactly_below_the_zero_threshold(x, method):
    # halfhalf's type 4: an operand at or below 2^-36 vanishes, a larger one leaves a trace.
    hi, lo = split1(np.float32(x), method)
    threshold = ZERO_THRESHOLD[method]
    vanished = x < threshold if method == "tf32" else x <= threshold
    assert (hi == 0 and lo == 0) == vanished, (x, hi, lo)


@PROFILE
@given(st.floats(60000.0, 70000.0, width=32), st.sampled_from(["half", "markidis"]))
def test_fp16_parts_overflow_exactly_from_65520(x, method):
    hi, _ = split1(np.float32(x), method)
    assert np.isinf(hi) == (x >= FP16_OVERFLOW)


# --- emulated GEMMs -------------------------------------------------------------------



@st.composite
def gemm_cases(draw, mode):
    m, n, k = (draw(st.integers(1, 12)) for _ in range(3))
    k = draw(st.sampled_from([k, 16 * k]))  # several Tensor Core k-steps too
    low, high = DOCUMENTED_RANGE[mode]
    ranges = draw(exponent_ranges(low, high, min_product_exponent=-126,
                                  max_product_exponent=safe_product_exponent(k)))
    a, b = exp_rand_operands((m, k), (k, n), ranges, draw(st.integers(0, 2 ** 32 - 1)))
    alpha = draw(st.sampled_from([1.0, -1.0, 0.5, 3.0]))
    beta = draw(st.sampled_from([0.0, 1.0, -0.25]))
    ab = a.astype(np.float64) @ b.astype(np.float64)
    c = (ab * np.random.default_rng(k).uniform(-1, 1, ab.shape)).astype(np.float32)
    return a, b, c, alpha, beta


def _residual(result, a, b, c, alpha, beta):
    ref = alpha * (a.astype(np.float64) @ b.astype(np.float64)) + beta * c.astype(np.float64)
    return float(np.linalg.norm(result.astype(np.float64) - ref))


# The promotion as the plane and wgmma kernels and fused_mma's 64-wide tile run it; as the 32-wide
# tile runs it (compensated, with lo·lo); and the lab's what-if on top of that (half_ulp_offset).
CHAINS = {"plain": {}, "compensated": {"compensate": True},
          "half-ulp": {"compensate": True, "half_ulp_offset": True}}


@pytest.mark.parametrize("chain", sorted(CHAINS))
@pytest.mark.parametrize("mode", sorted(DOCUMENTED_RANGE))
@PROFILE
@given(data=st.data())
def test_emulated_corrected_gemm_is_as_accurate_as_fp32(mode, chain, data):
    a, b, c, alpha, beta = data.draw(gemm_cases(mode))
    fp32 = numerics.gemm(a, b, "fp32", alpha=alpha, beta=beta, c=c)
    ours = numerics.gemm(a, b, mode, alpha=alpha, beta=beta, c=c, **CHAINS[chain])
    res_fp32 = _residual(fp32, a, b, c, alpha, beta)
    res_ours = _residual(ours, a, b, c, alpha, beta)
    assert res_ours <= accepted_error(res_fp32, a, b, c, alpha, beta), (res_ours, res_fp32)


@PROFILE
@given(operands=mixed_row_operands(), alpha=st.sampled_from([1.0, -0.5]))
def test_emulated_auto_on_mixed_rows_is_as_accurate_as_fp32(operands, alpha):
    a, b = operands
    c = np.zeros((a.shape[0], b.shape[1]), dtype=np.float32)
    fp32 = numerics.gemm(a, b, "fp32", alpha=alpha)
    ours = numerics.gemm(a, b, "auto", alpha=alpha)
    res_fp32, res_ours = _residual(fp32, a, b, c, alpha, 0.0), _residual(ours, a, b, c, alpha, 0.0)
    assert res_ours <= accepted_error(res_fp32, a, b, c, alpha, 0.0), (res_ours, res_fp32)
    # Rows of at most 29 binades fit AUTO's window: these run halfhalf on scaled operands.
    assert not numerics.auto_choice(a, b).fallback


@pytest.mark.parametrize("exp_type, route", [(1, "halfhalf"), (2, "tf32tf32"), (3, "halfhalf"),
                                             (4, "tf32tf32")])
def test_auto_route_and_accuracy_on_the_papers_exponent_types(exp_type, route):
    ranges = {1: ((-15, 14), (-15, 14)), 2: ((-15, 14), (-100, -35)), 3: ((-35, -15), (-35, -15)),
              4: ((-100, -35), (-100, -35))}[exp_type]
    a, b = exp_rand_operands((24, 256), (256, 20), ranges, seed=exp_type)
    choice = numerics.auto_choice(a, b)
    assert choice.mode == route
    res = {mode: numerics.relative_residual(numerics.gemm(a, b, mode), a, b)
           for mode in ("fp32", "auto", "halfhalf")}
    norm_ab = np.linalg.norm(a.astype(np.float64) @ b.astype(np.float64))
    zero = np.zeros((24, 20), dtype=np.float32)
    assert res["auto"] * norm_ab <= accepted_error(res["fp32"] * norm_ab, a, b, zero, 1.0, 0.0), res
    if exp_type in (2, 4):  # plain halfhalf is far off there: AUTO's fall-back is what saves it
        assert res["halfhalf"] > 100 * res["auto"], res


def test_auto_scales_each_row_and_column_to_the_top_of_fp16s_window():
    a = np.array([[3.0, 0.5], [2.0 ** -60, 2.0 ** -70], [0.0, 0.0]], dtype=np.float32)
    b = np.array([[1e20, 1.0], [1e19, 0.25]], dtype=np.float32)
    choice = numerics.auto_choice(a, b)
    assert list(choice.row_exp) == [14 - 1, 14 + 60, 0]
    assert list(choice.col_exp) == [14 - 66, 14 - 0]
    assert not choice.fallback
    for bad in (np.inf, np.nan):
        a2 = a.copy()
        a2[0, 1] = bad
        assert numerics.auto_choice(a2, b).fallback
    wide = np.array([[1.0, 2.0 ** -30]], dtype=np.float32)  # 30 binades: below 2^-15 once scaled
    assert numerics.auto_choice(wide, b).fallback
    assert not numerics.auto_choice(np.array([[1.0, 2.0 ** -29]], dtype=np.float32), b).fallback


def test_auto_keeps_rows_too_wide_for_fp32_once_scaled_unscaled():
    """Scaled to the top, a row of more than 129 binades would push its smallest elements
    below 2^-115 (tf32tf32's low part subnormal) or out of FP32: such data runs tf32tf32 on
    the operands as they are. [2^100, 2^-66] . [2^-100, 2^66] is 2; scaled, it was 0."""
    b = np.array([[1.0], [1.0]], dtype=np.float32)
    edge = numerics.auto_choice(np.array([[1.0, 2.0 ** -129]], dtype=np.float32), b)
    assert edge.fallback and edge.scaled
    beyond = numerics.auto_choice(np.array([[1.0, 2.0 ** -130]], dtype=np.float32), b)
    assert beyond.fallback and not beyond.scaled and not beyond.row_exp.any()
    a = np.array([[2.0 ** 100, 2.0 ** -66]], dtype=np.float32)
    b = np.array([[2.0 ** -100], [2.0 ** 66]], dtype=np.float32)
    choice = numerics.auto_choice(a, b)
    assert choice.mode == "tf32tf32" and not choice.scaled
    assert numerics.gemm(a, b, "auto")[0, 0] == 2.0
    assert numerics.gemm(a, b, "fp32")[0, 0] == 2.0


@st.composite
def special_value_cases(draw):
    a, b, _ = draw(special_operands(st.integers(1, 6), ((-4, 4), (-4, 4)), [0.05, 0.3],
                                    [np.nan, np.inf, -np.inf, 0.0, 1.0]))
    return a, b


@pytest.mark.parametrize("mode", ["tf32tf32", "halfhalf", "tf32", "fp16", "auto"])
@PROFILE
@given(special_value_cases())
def test_emulated_nan_and_inf_land_where_fp32_puts_them(mode, case):
    a, b = case
    fp32 = numerics.gemm(a, b, "fp32")
    ours = numerics.gemm(a, b, mode)
    assert np.array_equal(np.isnan(ours), np.isnan(fp32))
    assert np.array_equal(np.isposinf(ours), np.isposinf(fp32))
    assert np.array_equal(np.isneginf(ours), np.isneginf(fp32))


def test_inf_times_an_exact_value_stays_inf():
    # b = 1 has lo = 0: the correction product Inf·0 is NaN, which must not reach C.
    a = np.array([[np.inf, 1.0]], dtype=np.float32)
    b = np.array([[1.0], [2.0]], dtype=np.float32)
    for mode in ("fp32", "tf32tf32", "halfhalf"):
        assert numerics.gemm(a, b, mode)[0, 0] == np.inf, mode


def test_tf32tf32_loses_accuracy_below_2_pow_minus_113():
    # lo = tf32(x - hi) is subnormal there: TF32's 2^-136 spacing is all it keeps. With a
    # large B the products are normal and FP32 keeps them, tf32tf32 does not.
    rng = np.random.default_rng(11)
    a = numerics.exp_rand((4, 64), -126, -122, rng)
    b = numerics.exp_rand((64, 4), 90, 100, rng)
    res = {mode: numerics.relative_residual(numerics.gemm(a, b, mode), a, b)
           for mode in ("fp32", "tf32tf32")}
    assert res["tf32tf32"] > 30 * res["fp32"], res


# --- the Tensor Core model -------------------------------------------------------------

def test_mma_adds_c_with_the_chosen_rounding():
    one_plus = np.float32(1 + 2.0 ** -23)
    a = np.array([[1.0, 3 * 2.0 ** -25]], dtype=np.float32)  # 1 + 1.5 ulp: RN goes up
    b = np.ones((2, 1), dtype=np.float32)
    c = np.zeros((1, 1), dtype=np.float32)
    assert numerics.mma(a, b, c, "rn")[0, 0] == one_plus
    assert numerics.mma(a, b, c, "rz")[0, 0] == 1.0


def test_mma_accumulator_truncates_to_its_extra_bits():
    # 1 + 2^-30 does not fit 26 significant bits: the accumulator drops 2^-30 before C = -1
    # is added, so the exact 2^-30 comes out as 0; with 20 extra bits it survives.
    a = np.array([[1.0, 2.0 ** -30]], dtype=np.float32)
    b = np.ones((2, 1), dtype=np.float32)
    c = -np.ones((1, 1), dtype=np.float32)
    assert numerics.mma(a, b, c, "rn", extra_bits=2)[0, 0] == 0.0
    assert numerics.mma(a, b, c, "rn", extra_bits=20)[0, 0] == np.float32(2.0 ** -30)


@PROFILE
@given(st.integers(0, 2 ** 32 - 1), st.integers(1, 40))
def test_mma_rz_and_rn_differ_by_at_most_one_ulp(seed, k):
    rng = np.random.default_rng(seed)
    a, _ = numerics.split(rng.uniform(-1, 1, (3, k)).astype(np.float32), "half")
    b, _ = numerics.split(rng.uniform(-1, 1, (k, 2)).astype(np.float32), "half")
    c = rng.uniform(-4, 4, (3, 2)).astype(np.float32)
    rn, rz = numerics.mma(a, b, c, "rn"), numerics.mma(a, b, c, "rz")
    assert np.all(np.abs(rz.astype(np.float64)) <= np.abs(rn.astype(np.float64)) + 0.0)
    assert np.all(np.abs(rn.astype(np.float64) - rz) <= numerics.ulp(rn))


def test_figure5_rz_accumulation_explains_markidis_error():
    # The paper's Figure 5 at k = 4096: with mma_rz Markidis' method is far from FP32;
    # with mma_rn it is as accurate. ecgemm's corrected modes (RZ hardware, RN promotion)
    # match FP32 too.
    res = numerics.accumulation_experiment([4096], repeats=2, rng=3)
    fp32 = res["FP32 (sequential FMA)"][0]
    assert res["Markidis, mma_rz"][0] > 8 * fp32
    for label in ("Markidis, mma_rn", "halfhalf, RN promotion", "tf32tf32, RN promotion"):
        assert res[label][0] <= 1.25 * fp32, (label, res[label][0], fp32)
    assert res["TF32, one pass"][0] > 100 * fp32


def test_promotion_is_what_makes_the_difference():
    rng = np.random.default_rng(4)
    a = rng.uniform(-1, 1, (2, 16, 2048)).astype(np.float32)
    b = rng.uniform(-1, 1, (2, 2048, 16)).astype(np.float32)
    promoted = numerics.gemm(a, b, "halfhalf")
    in_core = numerics.gemm(a, b, "halfhalf", promote=False)
    res = [np.mean([numerics.relative_residual(c[i], a[i], b[i]) for i in range(2)])
           for c in (promoted, in_core)]
    assert res[1] > 4 * res[0], res


@pytest.mark.parametrize("mode", ["tf32tf32", "halfhalf"])
def test_two_level_promotion_shortens_the_fp32_chain(mode):
    # One FP32 chain of k/8 promotions carries most of the corrected modes' error at long k
    # (docs/numerics.md, section 11); blocks of 8 k-steps summed apart take much of it out.
    rng = np.random.default_rng(5)
    a = rng.uniform(-1, 1, (2, 16, 2048)).astype(np.float32)
    b = rng.uniform(-1, 1, (2, 2048, 16)).astype(np.float32)
    one_chain = numerics.gemm(a, b, mode)
    steps = 2048 // numerics.TILE_K[mode]
    assert np.array_equal(numerics.gemm(a, b, mode, promote_block=steps), one_chain)
    two_level = numerics.gemm(a, b, mode, promote_block=8)
    res = [np.mean([numerics.relative_residual(c[i], a[i], b[i]) for i in range(2)])
           for c in (one_chain, two_level)]
    assert res[1] < 0.8 * res[0], res


def test_exp_rand_draws_the_papers_distribution():
    x = numerics.exp_rand((1 << 16,), -3, 2, rng=9)
    exponents = np.frexp(x)[1] - 1
    assert x.dtype == np.float32 and set(np.unique(exponents)) == set(range(-3, 3))
    assert abs(np.mean(x > 0) - 0.5) < 0.02
    mantissas = np.abs(x) / np.exp2(exponents.astype(np.float64))
    assert abs(np.mean(mantissas) - 1.5) < 0.01 and np.all((1 <= mantissas) & (mantissas < 2))
    with pytest.raises(ValueError):
        numerics.exp_rand((2,), -127, 0)
    with pytest.raises(ValueError):
        numerics.exp_rand((2,), 3, 2)


def exact_lo_operands(rows, k, cols, hi_bits, spread, rng):
    """x = h + l exactly (float32), h of `hi_bits` bits in [1, 2) times 2^e, |e| <= spread, l of 11 bits
    at 0.25-0.49 of an 11-bit hi's last place: both splits keep h as hi and l as lo exactly, every lo is
    positive (tests/test_fused_mma_gpu.py, exact_lo_operand). Returns a, b and h_a, h_b (float64)."""
    def operand(shape):
        e = rng.integers(-spread, spread + 1, shape).astype(np.float64)
        top = 1 << (hi_bits - 1)
        h = (top + rng.integers(0, top, shape)) / top * np.exp2(e)
        lo = (1024 + rng.integers(0, 1000, shape)) * np.exp2(e - 22)
        x = (h + lo).astype(np.float32)
        assert np.array_equal(x.astype(np.float64), h + lo)
        return x, h
    a, ha = operand((rows, k))
    b, hb = operand((k, cols))
    return a, b, ha, hb


def nearest_float32_of_product(a, b):
    """a @ b rounded once to float32 (the exact sum as fsum's value plus its remainder)."""
    products = a.astype(np.float64)[:, :, None] * b.astype(np.float64)[None, :, :]  # exact
    out = np.empty((a.shape[0], b.shape[1]), dtype=np.float32)
    for i in range(a.shape[0]):
        for j in range(b.shape[1]):
            terms = list(products[i, :, j])
            value = math.fsum(terms)
            tail = math.fsum(terms + [-value])
            out[i, j] = numerics.round_to(value, numerics.FP32, "rn", np.float64(tail))
    return out


@pytest.mark.parametrize("mode", ["tf32tf32", "halfhalf"])
def test_the_compensated_tile_rounds_the_exact_product_once_where_its_sums_are_exact(mode):
    # fused_mma's compensated promotion (compensate=True) with lo·lo: where every part and every
    # Tensor Core sum is exact (hi of 5 bits, lo exact), what is left is the one rounding at the end.
    # The plain chain drops lo·lo, ~u of each product, all of one sign here.
    rng = np.random.default_rng(7)
    a, b, _, _ = exact_lo_operands(16, 96, 12, 5, 0, rng)
    nearest = nearest_float32_of_product(a, b)
    compensated = numerics.gemm(a, b, mode, compensate=True)
    plain = numerics.gemm(a, b, mode)
    assert np.mean(compensated == nearest) >= 0.99
    assert np.mean(plain == nearest) < 0.5


@pytest.mark.parametrize("mode", ["tf32tf32", "halfhalf"])
def test_the_tensor_cores_truncated_sums_are_positive_datas_floor(mode):
    # With hi of 11 bits over 7 binades a k-step's hi·hi sum needs more bits than the Tensor Core
    # keeps, and it truncates twice: inside (2 extra bits) and at its FP32 output (toward zero).
    # On positive data those truncations add up, and the compensated tile errs about as much as
    # the lo·lo it adds (chain-2026-11-28 call 4: 0.92-1.13 of it on an H100). A wider accumulator
    # alone does not help; with it and a round-to-nearest output only the final rounding is left.
    rng = np.random.default_rng(8)
    a, b, ha, hb = exact_lo_operands(16, 96, 12, 11, 3, rng)
    ref = a.astype(np.float64) @ b.astype(np.float64)
    dropped = np.linalg.norm((a - ha) @ (b - hb))

    def err(**kw):
        return np.linalg.norm(numerics.gemm(a, b, mode, compensate=True, **kw) - ref) / dropped

    assert err() > 0.9
    assert err(extra_bits=20) > 0.7
    assert err(extra_bits=20, rounding="rn") < 0.6


def test_compensate_models_the_one_promoted_chain():
    a = np.ones((2, 8), dtype=np.float32)
    for kw in ({"promote": False}, {"promote_block": 4}):
        with pytest.raises(ValueError, match="compensate"):
            numerics.gemm(a, a.T, "tf32tf32", compensate=True, **kw)
    with pytest.raises(ValueError, match="compensate=True"):
        numerics.gemm(a, a.T, "tf32tf32", half_ulp_offset=True)


@pytest.mark.parametrize("mode", ["tf32tf32", "halfhalf"])
def test_a_half_ulp_accumulator_rounds_each_k_steps_sum_to_nearest(mode):
    # A what-if for the kernel (docs/numerics.md section 3): the hi·hi MMA rounds its FP32 output
    # toward zero; started from half an ulp of the previous k-step's sum (signed like it) instead of
    # 0, it rounds to nearest wherever the sum stays in that binade. On positive data, where every
    # truncation pointed one way, the compensated tile's error falls by more than 40%; on signed
    # data it does not grow.
    rng = np.random.default_rng(4)
    for low, bound in ((0.0, 0.6), (-1.0, 1.05)):
        a = rng.uniform(low, 1, (16, 200)).astype(np.float32)
        b = rng.uniform(low, 1, (200, 12)).astype(np.float32)
        plain = numerics.relative_residual(numerics.gemm(a, b, mode, compensate=True), a, b)
        offset = numerics.relative_residual(
            numerics.gemm(a, b, mode, compensate=True, half_ulp_offset=True), a, b)
        assert offset < bound * plain, (low, offset, plain)
