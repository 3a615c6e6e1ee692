"""The numerics lab's three-part TF32 split (numerics/three_part.py, docs/numerics.md section 11):
the parts sum to the value exactly, the GEMM built on them is exact where its products and
sums are, keeps special values where tf32tf32 puts them, and is more accurate than tf32tf32
on wide-range data."""
import numpy as np
import pytest

pytest.importorskip("hypothesis")
from hypothesis import given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from _numerics_hypothesis import PROFILE, special_operands  # noqa: E402

from ecgemm import numerics  # noqa: E402
from ecgemm.numerics.experiments import BLOCK_STUDY_DATA, split_error_study, split_error_table  # noqa: E402
from ecgemm.numerics.three_part import split3, three_part_gemm  # noqa: E402

TF32_DROPPED = np.uint32(0x1FFF)  # the 13 fraction bits TF32 does not keep


def tf32_values(x):
    return not np.any(x.view(np.uint32) & TF32_DROPPED)


@PROFILE
@given(exponent=st.integers(-102, 127), seed=st.integers(0, 2 ** 32 - 1))
def test_the_three_parts_sum_to_the_value_exactly(exponent, seed):
    rng = np.random.default_rng(seed)
    mantissa = rng.uniform(1.0, 2.0, 256) * rng.choice([-1.0, 1.0], 256)
    x = np.ldexp(mantissa, exponent - rng.integers(0, 3, 256)).astype(np.float32)
    x = x[np.isfinite(x)]
    p1, p2, p3 = split3(x)
    assert np.array_equal(p1.astype(np.float64) + p2 + p3, x.astype(np.float64))
    assert tf32_values(p1) and tf32_values(p2) and tf32_values(p3)
    # Each part is at most half an ulp of the one before (TF32: 11 bits), so none overlaps.
    assert np.all(np.abs(p2) <= np.abs(p1) * 2.0 ** -11)
    assert np.all(np.abs(p3) <= np.abs(p2) * 2.0 ** -11)


def test_non_finite_values_keep_one_part():
    x = np.float32([np.inf, -np.inf, np.nan, 0.0, -0.0])
    p1, p2, p3 = split3(x)
    assert np.array_equal(p1, x, equal_nan=True)
    assert not p2.any() and not p3.any()


def test_exact_where_every_product_and_sum_is():
    rng = np.random.default_rng(3)
    a = rng.integers(-255, 256, (9, 40)).astype(np.float32)
    b = rng.integers(-255, 256, (40, 7)).astype(np.float32)
    for rounding in ("rz", "rn"):
        assert np.array_equal(three_part_gemm(a, b, rounding), (a.astype(np.float64) @ b).astype(np.float32))


@PROFILE
@given(case=special_operands(st.integers(1, 6), ((-4, 4), (-4, 4)), [0.05, 0.3],
                             [np.nan, np.inf, -np.inf, 0.0, 1.0]))
def test_special_values_land_where_tf32tf32_puts_them(case):
    a, b, _ = case
    ours, theirs = three_part_gemm(a, b), numerics.gemm(a, b, "tf32tf32")
    assert np.array_equal(np.isnan(ours), np.isnan(theirs))
    assert np.array_equal(np.where(np.isinf(ours), ours, 0), np.where(np.isinf(theirs), theirs, 0))


@pytest.mark.parametrize("name", ["type 2", "type 4", "2^40 outlier a row"])
def test_more_accurate_than_tf32tf32_on_wide_data(name):
    m, k, n = 32, 256, 32
    index = [entry[0] for entry in BLOCK_STUDY_DATA].index(name)
    a, b = BLOCK_STUDY_DATA[index][2](m, k, n, np.random.default_rng([26, m, k, n, index]))
    ref = a.astype(np.float64) @ b.astype(np.float64)
    ours = numerics.relative_residual(three_part_gemm(a, b), a, b)
    theirs = numerics.relative_residual(numerics.gemm(a, b, "tf32tf32"), a, b)
    assert ours < theirs and np.isfinite(ref).all()


def test_the_study_table():
    results = split_error_study(shape=(8, 64, 8), data=("type 1", "urand(-1, 1)"), workers=1)
    table = split_error_table(results)
    assert table.count("\n| type 1 |") == 1 and "three parts, exact sums" in table
    for case in results["cases"]:
        for row in case["methods"].values():
            assert 0.0 < row["residual"] < 1e-5 and 0.0 < row["componentwise"] < 1e-5
