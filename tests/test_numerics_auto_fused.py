"""The numerics lab's model of AUTO on the fused mma.sync family (ecgemm.numerics.auto_fused): which
blocks of C take a stage in FP32, on the paper's exponent types and on edge cases; the exact FP32 path
it computes there. The GPU tests hold the kernels to this model (tests/test_auto_fused_gpu.py)."""
import numpy as np
import pytest

from ecgemm.numerics import exp_rand, fp32_path, scaled_wide_blocks, unscalable_stages, wide_blocks, wide_runs

RNG = np.random.default_rng(26)


def test_the_paper_s_types_1_and_3_and_urand_never_take_fp32():
    # Types 1 and 3 span at most 29 and 20 binades a row: no run can pass 32.
    for lo, hi in ((-15, 14), (-35, -15)):
        a, b = exp_rand((96, 256), lo, hi, RNG), exp_rand((256, 80), lo, hi, RNG)
        assert not wide_blocks(a, b).any()
    a = RNG.uniform(-1, 1, (96, 256)).astype(np.float32)
    b = RNG.uniform(-1, 1, (256, 80)).astype(np.float32)
    assert not wide_blocks(a, b).any()


def test_types_2_and_4_take_fp32_in_every_block_and_stage():
    a = exp_rand((64, 1024), -15, 14, RNG)
    b = exp_rand((1024, 64), -100, -35, RNG)
    assert wide_blocks(a, b).all()                      # type 2: B's columns span 65 binades
    assert wide_blocks(exp_rand((64, 1024), -100, -35, RNG), b).all()  # type 4


def test_one_outlier_marks_its_row_block_in_its_stage_only():
    a = RNG.uniform(0, 1, (96, 160)).astype(np.float32)
    b = RNG.uniform(0, 1, (160, 70)).astype(np.float32)
    a[40, 50] = 2.0 ** 40
    wide = wide_blocks(a, b)
    assert wide.shape == (3, 3, 5)
    expected = np.zeros_like(wide)
    expected[1, :, 1] = True                            # rows 32..63, k 32..63, every column block
    assert (wide == expected).all()


def test_a_tile_s_decision_covers_its_rows_and_columns_in_that_stage():
    # fused_wgmma's tiles (128 x 128 here): the outlier's tile row in its stage, every tile column.
    a = RNG.uniform(0, 1, (200, 160)).astype(np.float32)
    b = RNG.uniform(0, 1, (160, 300)).astype(np.float32)
    a[140, 50] = 2.0 ** 40
    b[100, 7] = 2.0 ** -60
    wide = wide_blocks(a, b, 128, 128)
    assert wide.shape == (2, 3, 5)
    expected = np.zeros_like(wide)
    expected[1, :, 1] = True                            # rows 128..199, k 32..63
    expected[:, 0, 3] = True                            # columns 0..127, k 96..127
    assert (wide == expected).all()
    assert (wide_blocks(a, b, 64, 16).sum(axis=(0, 1)) == [0, 19, 0, 4, 0]).all()


def test_the_bound_and_what_does_not_count():
    base = np.ones((1, 8), dtype=np.float32)
    run = base.copy()
    run[0, 3] = 2.0 ** -32                              # 32 binades: kept in tf32tf32
    assert not wide_runs(run)[0, 0]
    run[0, 3] = 2.0 ** -33                              # 33: FP32
    assert wide_runs(run)[0, 0]
    zeros = base.copy()
    zeros[0, :7] = 0.0                                  # zeros are not the smallest value
    assert not wide_runs(zeros)[0, 0]
    assert not wide_runs(np.zeros((1, 8), np.float32))[0, 0]
    for special in (np.inf, -np.inf, np.nan):
        x = base.copy()
        x[0, 5] = special
        assert wide_runs(x)[0, 0]
    tiny = base.copy()
    tiny[0, 0] = np.float32(1e-45)                      # a subnormal beside 1.0
    assert wide_runs(tiny)[0, 0]
    # Runs are aligned at multiples of 8 of k: a spread across two runs is no run's.
    split = np.ones((1, 16), dtype=np.float32)
    split[0, 8:] = 2.0 ** -40
    assert not wide_runs(split).any()


@pytest.mark.parametrize("bad", [np.ones(8, np.float32), np.ones((2, 8, 1), np.float32)])
def test_shapes_are_checked(bad):
    with pytest.raises(ValueError):
        wide_runs(bad)
    with pytest.raises(ValueError):
        wide_blocks(np.ones((2, 3), np.float32), np.ones((4, 2), np.float32))


def test_the_fp32_path_rounds_each_step_to_nearest_in_two_levels():
    # Exact in float64 (short sums of small integers): the path gives that sum.
    ai = RNG.integers(-8, 8, (4, 40)).astype(np.float32)
    bi = RNG.integers(-8, 8, (40, 3)).astype(np.float32)
    assert (fp32_path(ai, bi) == (ai.astype(np.float64) @ bi).astype(np.float32)).all()
    # In one stage: 1 + 2^-24 rounds back to 1 (a tie, to even) before -1 comes: 0, not 2^-24.
    a = np.array([[1.0, 2.0 ** -12, -1.0]], dtype=np.float32)
    b = np.array([[1.0], [2.0 ** -12], [1.0]], dtype=np.float32)
    assert fp32_path(a, b)[0, 0] == 0.0
    # Across stages: stage 1 sums 2^-24 - 1 exactly before it meets stage 0's 1: 2^-24.
    a = np.zeros((1, 34), dtype=np.float32)
    b = np.zeros((34, 1), dtype=np.float32)
    a[0, [0, 32, 33]] = 1.0, 2.0 ** -12, -1.0
    b[[0, 32, 33], 0] = 1.0, 2.0 ** -12, 1.0
    assert fp32_path(a, b)[0, 0] == np.float32(2.0 ** -24)
    # ... and a step above the tie rounds up: 1 + 2^-24 + 2^-47 -> 1 + 2^-23.
    a = np.array([[1.0, 2.0 ** -12 * (1 + 2.0 ** -23)]], dtype=np.float32)
    b = np.array([[1.0], [2.0 ** -12]], dtype=np.float32)
    assert fp32_path(a, b)[0, 0] == np.float32(1 + 2.0 ** -23)


# The scaled form (docs/numerics.md section 13): a row's stage of 32 values.
def test_the_scaled_form_s_bounds():
    stage = np.full((1, 32), 1.0, np.float32)
    stage[0, 1] = 2.0 ** -28                  # 28 binades below the largest: still scaled
    assert not unscalable_stages(stage)[0, 0]
    stage[0, 1] = 2.0 ** -29
    assert unscalable_stages(stage)[0, 0]
    for top, ok in [(1.9 * 2.0 ** 60, True), (2.0 ** 61, False), (2.0 ** -60, True), (1.9 * 2.0 ** -61, False)]:
        assert unscalable_stages(np.full((1, 32), top, np.float32))[0, 0] != ok, top
    for bad in (np.inf, -np.inf, np.nan):
        stage = np.ones((1, 32), np.float32)
        stage[0, 5] = bad
        assert unscalable_stages(stage)[0, 0]


def test_zeros_do_not_count_and_stages_are_32_wide():
    x = np.zeros((2, 70), np.float32)
    x[0, :3] = 2.0 ** 50
    x[1, 40] = -3.0
    x[1, 63] = 2.0 ** -25                     # same stage as 40: 27 binades apart
    x[1, 64] = 2.0 ** -40                     # stage 2, alone
    assert not unscalable_stages(x).any()
    x[1, 63] = 2.0 ** -30
    assert unscalable_stages(x).tolist() == [[False, False, False], [False, True, False]]


def test_the_scaled_form_s_blocks():
    a, b = exp_rand((96, 160), -15, -5, RNG), exp_rand((160, 70), 0, 20, RNG)
    assert not scaled_wide_blocks(a, b).any()
    a[40, 50] = 2.0 ** 40                     # row block 1, stage 1
    b[100, 66] = 2.0 ** -60                   # column block 2, stage 3
    wide = scaled_wide_blocks(a, b)
    assert wide[1, :, 1].all() and wide[:, 2, 3].all() and wide.sum() == 6
    # The paper's type 1 spans 29 binades a row: ~40% of a row's stages cannot be scaled, so
    # nearly every block of 32 rows takes nearly every stage in FP32 (correct, and slow).
    t1 = exp_rand((64, 1024), -15, 14, RNG), exp_rand((1024, 64), -15, 14, RNG)
    assert 0.3 < unscalable_stages(t1[0]).mean() < 0.6
    assert scaled_wide_blocks(*t1).mean() > 0.99
