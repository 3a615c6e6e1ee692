"""AUTO's scaled form on the fused mma.sync family (halfhalf's products on values scaled by a power
of two per row of op(A) and per column of op(B) in each 32-wide stage; docs/numerics.md section 13),
pinned with ECGEMM_FAMILY=fused_mma/halfhalf (the 32-wide tile, its only one): exact under
power-of-two scaling of rows, columns and stages; FP32 only in the blocks the lab marks
(ecgemm.numerics.scaled_wide_blocks), and there the exact FP32 path's bits; NaN and Inf where SGEMM
puts them; at or below SGEMM's error."""
import numpy as np
import pytest

import ecgemm
from ecgemm.numerics import fp32_path, scaled_wide_blocks

from bench.inputs import EXP_TYPES, exp_pair, outlier_rows, rows_scaled, urand_pair
from test_auto_fused_gpu import error_measure, product, same_bits, wide_data
from test_c_abi_gpu import check_nan_inf_alpha_beta, cublas_sgemm, handle, torch  # noqa: F401

pytestmark = pytest.mark.gpu
if torch.cuda.get_device_capability()[0] < 8:
    pytest.skip("mma.sync with FP16 needs sm_80 or newer", allow_module_level=True)

RNG = np.random.default_rng(13)
SHAPES = [(96, 160, 70), (130, 1000, 257), (33, 4099, 40), (300, 64, 500)]


@pytest.fixture
def scaled(monkeypatch):
    monkeypatch.setenv("ECGEMM_FAMILY", "fused_mma/halfhalf")


def test_the_pin_runs_the_scaled_form(scaled):
    a, b = urand_pair(64, 64, 64, seed=1)
    text = ecgemm.explain(torch.from_numpy(a).cuda(), torch.from_numpy(b).cuda(), mode="auto")
    assert "method=halfhalf" in text and " scaled" in text and "tile=32x32" in text, text


def powers(shape, lo, hi):
    return (2.0 ** RNG.integers(lo, hi + 1, shape)).astype(np.float32)


@pytest.mark.parametrize("m,k,n", SHAPES)
def test_power_of_two_scaling_of_rows_columns_and_stages_is_exact(scaled, m, k, n):
    # A's rows by 2^r_i, B's columns by 2^c_j, and each stage s of k by 2^t_s in A and 2^-t_s in
    # B: every row's and column's scale follows, so C scales by 2^(r_i + c_j) bit for bit (as
    # long as all stays within the form's range). Unscaled halfhalf could not (FP16's range).
    a, b = urand_pair(m, k, n, seed=m + n)
    rows, cols = powers((m, 1), -20, 20), powers((1, n), -20, 20)
    stage = np.repeat(powers(-(-k // 32), -20, 20), 32)[:k]
    a2, b2 = a * rows * stage[None, :], b * cols / stage[:, None]
    assert not scaled_wide_blocks(a, b).any() and not scaled_wide_blocks(a2, b2).any()
    want = product("auto", a, b) * rows * cols
    assert same_bits(product("auto", a2, b2), want)


@pytest.mark.parametrize("batch", [False, True])
def test_only_the_blocks_the_lab_marks_change(scaled, batch):
    a, b = urand_pair(96, 160, 70, seed=7)
    base = (np.stack([a, a]), np.stack([b, b])) if batch else (a, b)
    before = product("auto", *base)
    a[40, 50] = 2.0 ** 40     # row block 1, stage 1: 40 binades above the rest of its stage
    b[100, 66] = 2.0 ** -60   # column block 2, stage 3
    wide = scaled_wide_blocks(a, b)
    assert wide[1, :, 1].all() and wide[:, 2, 3].all() and wide.sum() == 6
    after = product("auto", *((np.stack([a, a]), np.stack([b, b])) if batch else (a, b)))
    touched = np.zeros((96, 70), dtype=bool)
    touched[32:64, :] = True
    touched[:, 64:] = True
    assert same_bits(after[..., ~touched], before[..., ~touched])
    assert not same_bits(after[..., 32:64, :], before[..., 32:64, :])
    ref = a.astype(np.float64) @ b.astype(np.float64)
    assert np.abs(after[..., 32:64, :] - ref[32:64]).max() <= 2.0 ** -20 * np.abs(ref[32:64]).max()


def test_blocks_wide_in_every_stage_are_the_exact_fp32_path(scaled):
    a, b = wide_data((2, 40, 64)), wide_data((2, 64, 36))
    for z in range(2):
        assert scaled_wide_blocks(a[z], b[z]).all()
    got = product("auto", a, b)
    for z in range(2):
        assert same_bits(got[z], fp32_path(a[z], b[z])), z


@pytest.mark.parametrize("m,n,k", [(40, 36, 50), (130, 200, 300), (100, 70, 3000)])
def test_nan_and_inf_land_where_sgemm_puts_them(handle, scaled, m, n, k):
    check_nan_inf_alpha_beta(handle, "auto", m, n, k)


DATA = {f"type {t}": (lambda m, k, n, t=t: exp_pair(t, m, k, n, seed=t)) for t in EXP_TYPES}
DATA["urand"] = lambda m, k, n: urand_pair(m, k, n, seed=2)
DATA["positive"] = lambda m, k, n: tuple(np.abs(x) for x in urand_pair(m, k, n, seed=3))
DATA["rows 2^-100..2^100"] = lambda m, k, n: rows_scaled(m, k, n, -100, 100, seed=100)
DATA["rows 2^-50..2^50"] = lambda m, k, n: rows_scaled(m, k, n, -50, 50, seed=50)
DATA["one 2^40 outlier a row"] = lambda m, k, n: outlier_rows(m, k, n, 40, seed=40)


@pytest.mark.parametrize("data", list(DATA))
@pytest.mark.parametrize("m,k,n", [(256, 1024, 256), (200, 3000, 200), (1000, 300, 900)])
def test_at_or_below_sgemm_s_error(scaled, data, m, k, n):
    a_host, b_host = DATA[data](m, k, n)
    a, b = torch.from_numpy(a_host).cuda(), torch.from_numpy(b_host).cuda()
    errors = error_measure(a, b)

    auto, sgemm = errors(ecgemm.matmul(a, b, mode="auto")), errors(cublas_sgemm(a, b))
    if "outlier" in data:
        # One product dominates each output of those rows: every FP32 result is at the error of
        # the nearest float to it (bench/results/README.md#fp64-reduce).
        floor = errors((a.double() @ b.double()).float())
        assert auto[0] <= 1.001 * floor[0], (auto, sgemm, floor)
    else:
        assert auto[0] <= sgemm[0] and auto[1] <= sgemm[1], (auto, sgemm)
