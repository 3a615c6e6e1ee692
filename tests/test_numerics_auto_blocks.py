"""AUTO with scales per k-block (numerics.auto_block_gemm; docs/numerics.md, section 10), CPU."""

import numpy as np
import pytest

numerics = pytest.importorskip("ecgemm.numerics", reason="the ecgemm extension is not built")
from hypothesis import given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from _numerics_hypothesis import (DOCUMENTED_RANGE, PROFILE, accepted_error,  # noqa: E402
                                  exp_rand_operands, exponent_ranges, mixed_row_operands,
                                  safe_product_exponent, special_operands)

block_ks = st.sampled_from([16, 32, 64])
b_scales = st.sampled_from(["column", "tile"])
tile_ns = st.sampled_from([1, 3, 128])


def bits(x):
    return np.ascontiguousarray(x, dtype=np.float32).view(np.uint32)


def within_accepted_error(c, a, b):
    """(c's error <= accepted_error against the FP32 model's, the two errors)."""
    ref = a.astype(np.float64) @ b.astype(np.float64)
    err = float(np.linalg.norm(c.astype(np.float64) - ref))
    err_fp32 = float(np.linalg.norm(numerics.gemm(a, b, "fp32").astype(np.float64) - ref))
    zero = np.zeros(ref.shape, dtype=np.float32)
    return err <= accepted_error(err_fp32, a, b, zero, 1.0, 0.0), (err, err_fp32)


@st.composite
def exp_range_operands(draw, max_side=12):
    """exp_rand operands over AUTO's documented range, narrow and wide (300 binades)."""
    m, n, k = (draw(st.integers(1, max_side)) for _ in range(3))
    k = draw(st.sampled_from([k, 16 * k]))
    low, high = DOCUMENTED_RANGE["auto"]
    ranges = draw(exponent_ranges(low, high, min_product_exponent=-126,
                                  max_product_exponent=safe_product_exponent(k)))
    return exp_rand_operands((m, k), (k, n), ranges, draw(st.integers(0, 2 ** 32 - 1)))


# --- one block per row: today's AUTO -------------------------------------------------

def whole_row_block_k(k):
    return 16 * max(1, -(-k // 16))


@PROFILE
@given(operands=st.one_of(mixed_row_operands(), exp_range_operands()),
       extra=st.sampled_from([0, 1, 9]))
def test_one_block_per_row_takes_autos_scales_and_route(operands, extra):
    a, b = operands
    block_k = whole_row_block_k(a.shape[1]) + 16 * extra
    ours = numerics.block_choice(a, b, block_k=block_k)
    auto = numerics.auto_choice(a, b)
    assert ours.a_exp.shape == (a.shape[0], 1) and ours.b_exp.shape == (1, b.shape[1])
    assert ours.fallback == auto.fallback
    # The route differs on fallback: blocks run tf32tf32 unscaled, AUTO scaled up to 129 binades.
    assert ours.scaled == (not ours.fallback)
    if not auto.fallback:
        assert np.array_equal(ours.a_exp[:, 0], auto.row_exp)
        assert np.array_equal(ours.b_exp[0], auto.col_exp)


@st.composite
def normal_sum_operands(draw):
    """Rows of A and columns of B of up to 29 binades whose largest elements lie in
    [2^-10, 2^41): every non-zero partial sum, scaled or not, is then a normal FP32 number
    (it is a multiple of 2^(e_A + e_B - 87) >= 2^-107), and no sum overflows."""
    m, n = draw(st.integers(1, 8)), draw(st.integers(1, 8))
    k = draw(st.sampled_from([1, 7, 16, 40, 64, 100]))
    rng = np.random.default_rng(draw(st.integers(0, 2 ** 32 - 1)))

    def slab(count, shape, axis):
        parts = []
        for _ in range(count):
            top = draw(st.integers(-10, 40))
            parts.append(numerics.exp_rand(shape, top - draw(st.sampled_from([0, 3, 12, 29])),
                                           top, rng))
        return np.concatenate(parts, axis=axis)

    return slab(m, (1, k), 0), slab(n, (k, 1), 1)


@PROFILE
@given(operands=normal_sum_operands(), rounding=st.sampled_from(["rz", "rn"]))
def test_one_block_per_row_is_auto_bit_for_bit(operands, rounding):
    """With one block the correction is promoted once, at the end, as AUTO does, and each
    promotion's 2^-(s+t) commutes with its rounding while the sums stay normal: AUTO's
    epilogue unscale and the per-promotion factor give the same bits. (Where partial sums
    fall below 2^-126, the factor applied at promotion rounds on FP32's subnormal grid,
    AUTO's scaled sums do not: there the two may differ.)"""
    a, b = operands
    assert not numerics.auto_choice(a, b).fallback
    ours = numerics.auto_block_gemm(a, b, block_k=whole_row_block_k(a.shape[1]), rounding=rounding)
    assert np.array_equal(bits(ours), bits(numerics.gemm(a, b, "auto", rounding=rounding)))


# --- accuracy --------------------------------------------------------------------------

@PROFILE
@given(operands=exp_range_operands(), block_k=block_ks, b_scale=b_scales, tile_n=tile_ns)
def test_block_scaled_gemm_is_as_accurate_as_fp32_or_falls_back(operands, block_k, b_scale,
                                                                 tile_n):
    a, b = operands
    options = {"block_k": block_k, "b_scale": b_scale, "tile_n": tile_n}
    ours = numerics.auto_block_gemm(a, b, **options)
    if numerics.block_choice(a, b, **options).fallback:
        assert np.array_equal(bits(ours), bits(numerics.gemm(a, b, "tf32tf32")))
        return
    ok, errors = within_accepted_error(ours, a, b)
    assert ok, errors


@PROFILE
@given(operands=mixed_row_operands(), block_k=block_ks)
def test_rows_of_up_to_29_binades_stay_on_halfhalf_and_within_the_bound(operands, block_k):
    a, b = operands
    assert not numerics.block_choice(a, b, block_k=block_k).fallback
    ok, errors = within_accepted_error(numerics.auto_block_gemm(a, b, block_k=block_k), a, b)
    assert ok, errors


@st.composite
def drifting_rows(draw):
    """Rows of A whose exponent climbs or falls `span` binades along k (34 to 200): too wide
    for one scale a row, narrow enough (at most 25 + 3 binades) in each 64-wide block."""
    m, n = draw(st.integers(1, 6)), draw(st.integers(1, 6))
    k = draw(st.sampled_from([256, 512]))
    span = draw(st.integers(34, 25 * k // 64))  # 34: over 29 binades whatever exp_rand draws
    start = draw(st.integers(-100, 100 - span))
    rng = np.random.default_rng(draw(st.integers(0, 2 ** 32 - 1)))
    ramp = np.floor(start + span * np.arange(k) / k).astype(np.int32)
    if draw(st.booleans()):
        ramp = ramp[::-1]
    a = np.ldexp(numerics.exp_rand((m, k), -3, 0, rng), ramp[None, :]).astype(np.float32)
    return a, numerics.exp_rand((k, n), -5, 5, rng)


@PROFILE
@given(operands=drifting_rows(), b_scale=b_scales)
def test_rows_drifting_along_k_keep_halfhalf_where_auto_falls_back(operands, b_scale):
    a, b = operands
    assert numerics.auto_choice(a, b).fallback
    choice = numerics.block_choice(a, b, block_k=64, b_scale=b_scale)
    assert not choice.fallback and choice.mode == "halfhalf"
    ok, errors = within_accepted_error(numerics.auto_block_gemm(a, b, b_scale=b_scale), a, b)
    assert ok, errors


# --- fallback ---------------------------------------------------------------------------

@st.composite
def operands_with_specials(draw):
    # Sometimes several, zeros included ...
    a, b, _ = draw(special_operands(st.integers(1, 6), ((-4, 4), (-4, 4)), [0.0, 0.2],
                                    [np.nan, np.inf, -np.inf, 0.0]))
    target = a if draw(st.booleans()) else b  # and always one
    i, j = draw(st.integers(0, target.shape[0] - 1)), draw(st.integers(0, target.shape[1] - 1))
    target[i, j] = draw(st.sampled_from([np.nan, np.inf, -np.inf]))
    return a, b


@PROFILE
@given(operands=operands_with_specials(), block_k=block_ks, b_scale=b_scales)
def test_nan_or_inf_anywhere_gives_tf32tf32_on_the_operands_as_they_are(operands, block_k,
                                                                        b_scale):
    a, b = operands
    options = {"block_k": block_k, "b_scale": b_scale, "tile_n": 2}
    choice = numerics.block_choice(a, b, **options)
    assert choice.fallback and not choice.scaled
    assert not choice.a_exp.any() and not choice.b_exp.any()
    ours = numerics.auto_block_gemm(a, b, **options)
    assert np.array_equal(bits(ours), bits(numerics.gemm(a, b, "tf32tf32")))


def test_a_segment_over_29_binades_sends_the_call_to_tf32tf32():
    one = np.ones((32, 1), dtype=np.float32)
    for small, fits in ((2.0 ** -29, True), (2.0 ** -30, False)):
        a = np.ones((2, 32), dtype=np.float32)
        a[1, 17] = small  # k-block 1 of 16: row 1 spans 29 or 30 binades there
        choice = numerics.block_choice(a, one, block_k=16)
        assert choice.fallback != fits
        expected = np.ones((2, 2), dtype=bool)
        expected[1, 1] = fits
        assert np.array_equal(choice.a_fits, expected)
        # Narrow blocks split the same row where it does not matter: 1 in block 0 only.
        a[1, 16:] = small
        split = numerics.block_choice(a, one, block_k=16)
        assert not split.fallback and numerics.auto_choice(a, one).fallback == (not fits)
        assert split.a_exp[1].tolist() == [14, 14 - (np.frexp(small)[1] - 1)]
        b = one.copy()
        b[:16] = 0  # row 1 then sums its small block only: 16 · small, exactly
        assert numerics.auto_block_gemm(a, b, block_k=16)[:, 0].tolist() == [16.0, 16 * small]
        assert numerics.block_choice(a, one, block_k=32).fallback != fits


def test_the_fallback_runs_unscaled_where_auto_would_scale():
    """Rows of A over 36 binades, the products of their smallest elements (2^-126..2^-122,
    times 2^90..2^100) dominating: AUTO falls back to tf32tf32 on *scaled* operands and
    keeps those elements' low parts; the block design falls back on the operands as they
    are, where tf32tf32 loses them below 2^-113 (docs/numerics.md, section 6)."""
    rng = np.random.default_rng(5)
    a = np.concatenate([numerics.exp_rand((4, 32), -95, -90, rng),
                        numerics.exp_rand((4, 32), -126, -122, rng)], axis=1)
    b = np.concatenate([numerics.exp_rand((32, 3), -10, -5, rng),
                        numerics.exp_rand((32, 3), 90, 100, rng)], axis=0)
    auto = numerics.auto_choice(a, b)
    assert auto.fallback and auto.scaled
    ours = numerics.auto_block_gemm(a, b)
    assert np.array_equal(bits(ours), bits(numerics.gemm(a, b, "tf32tf32")))
    res = {name: numerics.relative_residual(c, a, b)
           for name, c in (("blocks", ours), ("auto", numerics.gemm(a, b, "auto")))}
    assert res["blocks"] > 10 * res["auto"], res


def test_one_scale_per_tile_of_b_falls_back_where_columns_would_not():
    a = np.ones((1, 16), dtype=np.float32)
    b = np.ones((16, 3), dtype=np.float32)
    b[:, 1] = 2.0 ** -30  # column 1 alone is narrow; beside column 0 a tile spans 30 binades
    column = numerics.block_choice(a, b, b_scale="column")
    assert not column.fallback and column.b_exp.tolist() == [[14, 44, 14]]
    tile1 = numerics.block_choice(a, b, b_scale="tile", tile_n=1)
    assert np.array_equal(tile1.b_exp, column.b_exp)
    tile2 = numerics.block_choice(a, b, b_scale="tile", tile_n=2)
    assert tile2.fallback and tile2.b_fits.tolist() == [[False, True]]
    assert tile2.unfit_fractions == (0.0, 0.5)
    assert np.array_equal(bits(numerics.auto_block_gemm(a, b, b_scale="tile", tile_n=2)),
                          bits(numerics.gemm(a, b, "tf32tf32")))


@PROFILE
@given(operands=exp_range_operands(max_side=10), block_k=block_ks,
       tile_n=st.sampled_from([2, 3, 4]))
def test_a_tiles_scale_is_that_of_its_largest_column(operands, block_k, tile_n):
    a, b = operands
    column = numerics.block_choice(a, b, block_k=block_k)
    tile = numerics.block_choice(a, b, block_k=block_k, b_scale="tile", tile_n=tile_n)
    if column.fallback or tile.fallback:
        return
    for t in range(tile.b_exp.shape[1]):
        cols = slice(t * tile_n, (t + 1) * tile_n)
        for block in range(tile.b_exp.shape[0]):
            rows = slice(block * block_k, (block + 1) * block_k)
            nonzero = np.abs(b[rows, cols]).max(axis=0) > 0
            expect = column.b_exp[block, cols][nonzero].min() if nonzero.any() else 0
            assert tile.b_exp[block, t] == expect
    assert np.array_equal(tile.a_exp, column.a_exp)


# --- exactness of the scaling -----------------------------------------------------------

@st.composite
def exact_operands(draw):
    """A = p · 2^(r_i + d_b), B = q · 2^(c_j - d_b) with integers p, q and d_b drifting up
    to ±60 per k-block: every row spans far more than 29 binades, each segment at most 27.
    One side of each block holds 14-bit integers (lo != 0), the other |q| <= 3, so every
    product and partial sum is an integer times 2^(r_i + c_j) below 2^24 in magnitude:
    FP32 and a correct model get A·B exactly, whichever factor each block needs."""
    tile = draw(st.booleans())
    m, n = draw(st.integers(1, 5)), draw(st.integers(1, 5))
    block_k = draw(st.sampled_from([16, 32]))
    blocks = draw(st.integers(2, 4))
    k = block_k * blocks - draw(st.integers(0, 5))
    rng = np.random.default_rng(draw(st.integers(0, 2 ** 32 - 1)))
    r = rng.integers(-40, 40, (m, 1), endpoint=True)
    c = rng.integers(-6, 6, (1, n), endpoint=True) if tile else rng.integers(-40, 40, (1, n),
                                                                             endpoint=True)
    d = np.repeat(rng.integers(-60, 60, blocks, endpoint=True), block_k)[:k]
    big_a = (np.arange(k) // block_k) % 2 == 0
    wide, narrow = 1 << 13, 3
    p = np.where(big_a[None, :], rng.integers(-wide, wide, (m, k), endpoint=True),
                 rng.integers(-narrow, narrow, (m, k), endpoint=True))
    q = np.where(big_a[:, None], rng.integers(-narrow, narrow, (k, n), endpoint=True),
                 rng.integers(-wide, wide, (k, n), endpoint=True))
    a = np.ldexp(p.astype(np.float32), (r + d[None, :]).astype(np.int32))
    b = np.ldexp(q.astype(np.float32), (c - d[:, None]).astype(np.int32))
    options = {"block_k": block_k, "b_scale": "tile" if tile else "column", "tile_n": 2}
    return a.astype(np.float32), b.astype(np.float32), options


@PROFILE
@given(case=exact_operands())
def test_per_block_factors_are_exact(case):
    a, b, options = case
    choice = numerics.block_choice(a, b, **options)
    assert not choice.fallback
    exact = (a.astype(np.float64) @ b.astype(np.float64)).astype(np.float32)
    assert np.array_equal(bits(numerics.auto_block_gemm(a, b, **options)), bits(exact))


def test_a_product_below_fp32s_normal_range_is_rounded_once():
    """s = t = 64, so 2^-(s+t) = 2^-128 is one FP32 number and the promotion is one FFMA:
    1.5·2^-70 × 1.125·2^-79 = 1.6875·2^-149 rounds once, to 2^-148, as FP32's FMA gives.
    Rounding the scaled product first (toward zero, as the Tensor Core would) gives 2^-149."""
    a = np.float32([[2.0 ** -50, 1.5 * 2.0 ** -70, 0.0]])
    b = np.float32([[0.0], [1.125 * 2.0 ** -79], [2.0 ** -50]])
    choice = numerics.block_choice(a, b)
    assert choice.a_exp.tolist() == [[64]] and choice.b_exp.tolist() == [[64]]
    assert numerics.auto_block_gemm(a, b)[0, 0] == np.float32(2.0 ** -148)
    assert numerics.gemm(a, b, "fp32")[0, 0] == np.float32(2.0 ** -148)


# --- input validation -----------------------------------------------------------------

def test_bad_options_and_operands_are_refused_clearly():
    a, b = np.ones((2, 32), dtype=np.float32), np.ones((32, 3), dtype=np.float32)
    for block_k in (0, -16, 40, 8):
        with pytest.raises(ValueError, match="block_k"):
            numerics.auto_block_gemm(a, b, block_k=block_k)
    for block_k in (64.0, True, "64"):
        with pytest.raises(TypeError, match="block_k"):
            numerics.block_choice(a, b, block_k=block_k)
    with pytest.raises(ValueError, match="b_scale must be one of"):
        numerics.block_choice(a, b, b_scale="row")
    with pytest.raises(ValueError, match="tile_n"):
        numerics.auto_block_gemm(a, b, b_scale="tile", tile_n=0)
    with pytest.raises(ValueError, match="do not multiply"):
        numerics.auto_block_gemm(a, b[:31])
    with pytest.raises(ValueError, match="do not multiply"):
        numerics.block_choice(a[None], b)
    with pytest.raises(TypeError, match="float32"):
        numerics.auto_block_gemm(a.astype(np.float64), b)
    with pytest.raises(ValueError, match="rounding"):
        numerics.auto_block_gemm(a, b, rounding="rd")


# --- the study ----------------------------------------------------------------------------

def test_study_reports_routes_and_ratios_per_data_set():
    results = numerics.block_scaling_study(shapes=((8, 64, 8),), workers=1,
                                           data=["type 1", "drift along k"])
    by_data = {case["data"]: case["methods"] for case in results["cases"]}
    assert by_data["type 1"]["fp32"]["residual_ratio"] == 1.0
    # One 64-wide block holds the whole 200-binade ramp: every block variant falls back.
    drift = by_data["drift along k"]
    for label, row in drift.items():
        if label.startswith("blocks"):
            assert row["fallback"] and row["unfit"] == (1.0, 0.0)
            assert row["residual"] == drift["tf32tf32"]["residual"]
    assert not any(row.get("fallback") for row in by_data["type 1"].values())
    with pytest.raises(ValueError, match="unknown data set"):
        numerics.block_scaling_study(shapes=((8, 64, 8),), data=["type 9"], workers=1)
