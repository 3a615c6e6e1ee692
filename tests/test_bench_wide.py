"""bench.wide's data sets (CPU): each is what its name says, the same for the same case, and
never zeros."""
import numpy as np
import pytest

from bench.wide import DATA, operands


@pytest.mark.parametrize("data", DATA)
def test_data_sets_are_deterministic_finite_and_nonzero(data):
    a, b = operands(data, 12, 40, 7, seed=3)
    a2, b2 = operands(data, 12, 40, 7, seed=3)
    assert a.dtype == b.dtype == np.float32 and a.shape == (12, 40) and b.shape == (40, 7)
    assert np.array_equal(a, a2) and np.array_equal(b, b2)
    assert np.isfinite(a).all() and np.isfinite(b).all()
    assert (a != 0).mean() > 0.9 and (b != 0).mean() > 0.9
    assert not np.array_equal(a, operands(data, 12, 40, 7, seed=4)[0])


def test_each_data_set_has_its_range():
    exps = lambda x: np.frexp(np.abs(x[x != 0]))[1]  # noqa: E731
    a, b = operands("type 4", 64, 64, 64, 0)
    assert exps(a).min() >= -99 and exps(a).max() <= -34 and np.ptp(exps(b)) > 50
    a, _ = operands("rows 2^±100", 256, 64, 8, 0)
    row_top = np.frexp(np.abs(a).max(axis=1))[1]
    assert row_top.min() < -60 and row_top.max() > 60
    a, _ = operands("outlier 2^40", 32, 64, 8, 0)
    assert ((a == 2.0 ** 40).sum(axis=1) == 1).all()
    a, b = operands("urand(0,1)", 16, 16, 16, 0)
    assert (a >= 0).all() and (b >= 0).all()
