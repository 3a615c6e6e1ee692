"""The paper's analysis reproduced: Tables 1-2 by exhaustive enumeration, underflow laws."""

import math
import sys
from fractions import Fraction as F

import numpy as np
import pytest

numerics = pytest.importorskip("ecgemm.numerics", reason="the ecgemm extension is not built")
from ecgemm.numerics import underflow  # noqa: E402

TABLE_1_RN = {23: F(3, 4), 22: F(1, 4)}
TABLE_2_RZ = {23: F(1, 2), 22: F(1, 4), 21: F(1, 4)}


def test_table1_halfhalf_round_to_nearest_keeps_22_75_bits():
    dist = numerics.kept_length_distribution("half")  # the kernels' own split, all 2^23
    assert dist == TABLE_1_RN
    assert numerics.expected_kept_length(dist) == F(91, 4)  # 22.75


def test_table2_round_toward_zero_keeps_22_25_bits():
    dist = numerics.kept_length_distribution("half", "rz")
    assert dist == TABLE_2_RZ
    assert numerics.expected_kept_length(dist) == F(89, 4)  # 22.25


@pytest.mark.parametrize("method, rounding", [("markidis", None), ("tf32", None),
                                              ("half", "rna")])
def test_rna_and_unscaled_splits_keep_the_same_distribution(method, rounding):
    # The paper: RNA keeps as many bits as RN; tf32tf32 (RNA, 10 bits) matches Table 1.
    assert numerics.kept_length_distribution(method, rounding) == TABLE_1_RN


# Table 1 holds exactly, binade by binade, from these exponents to FP16's or FP32's top:
# halfhalf [2^-12, 2^15), Markidis [2^-1, 2^15), tf32tf32 [2^-113, 2^127). One binade
# lower the low part starts to underflow (halfhalf's 2^11 buys 11 binades over Markidis).
FULL_RANGE = {"half": (-12, 14), "markidis": (-1, 14), "tf32": (-113, 126)}


@pytest.mark.parametrize("method", sorted(FULL_RANGE))
def test_table1_holds_exactly_across_the_full_accuracy_range(method):
    low, high = FULL_RANGE[method]
    for exponent in (low, high):
        assert numerics.kept_length_distribution(method, exponent=exponent) == TABLE_1_RN


@pytest.mark.parametrize("method", sorted(FULL_RANGE))
def test_one_binade_below_the_range_the_low_part_loses_bits(method):
    dist = numerics.kept_length_distribution(method, exponent=FULL_RANGE[method][0] - 1)
    assert dist == {23: F(1, 2), 22: F(1, 2)}  # 22.5 bits: the last bit is lost twice as often


def test_the_top_binades_lose_only_the_overflowing_values():
    # halfhalf: x >= 65520 rounds to Inf (1/2048 of [2^15, 2^16)); tf32tf32: hi is
    # truncated instead of rounding past FLT_MAX, which costs a bit in 1/8192 of the binade.
    assert numerics.kept_length_distribution("half", exponent=15)[-1] == F(1, 2048)
    assert numerics.kept_length_distribution("tf32", exponent=127)[21] == F(1, 8192)


def test_mantissa_kept_examples():
    x = np.array([1.0, 1 + 2.0 ** -23, 1 + 2.0 ** -11 + 2.0 ** -23, 3.0 * 2.0 ** 10],
                 dtype=np.float32)
    # 1 + 2^-11 + 2^-23: hi rounds up to 1 + 2^-10, and the residual -(2^-11 - 2^-23) has
    # 12 significant bits, one more than FP16 holds.
    assert numerics.mantissa_kept(x, "half").tolist() == [23, 23, 22, 23]
    assert numerics.mantissa_kept(np.float32([70000.0]), "half").tolist() == [-1]  # hi = Inf


def test_p_l0_is_a_distribution():
    probabilities = [underflow.p_l0(n) for n in range(-2, underflow.MAX_L0 + 3)]
    assert sum(probabilities) == 1
    assert underflow.p_l0(0) == F(1, 2) and underflow.p_l0(13) == F(1, 2 ** 13)


@pytest.mark.parametrize("e_v, scaled, expected", [
    (0, False, (F(0), F(1, 16))),    # gradual underflow already at v ~ 1 (the paper's point)
    (-1, False, (F(1, 2 ** 13), F(1, 8))),
    (-14, False, (F(1), F(1))),
    (9, False, (F(0), F(1, 2 ** 13))),
    (10, False, (F(0), F(0))),
    (0, True, (F(0), F(0))),          # the 2^11 scaling removes it
    (-2, True, (F(0), F(1, 2 ** 13))),
    (-14, True, (F(1, 2 ** 11), F(1, 2))),
])
def test_underflow_theory_values(e_v, scaled, expected):
    assert underflow.underflow_theory(e_v, scaled) == expected


def test_scaling_shifts_the_law_by_11_binades():
    for e_v in range(-3, 16):
        assert underflow.underflow_theory(e_v - 11, True) == underflow.underflow_theory(e_v)


SAMPLES = 1 << 15


def _tolerance(p, extra=0.0):
    """5 standard deviations of a sampled frequency, plus a known model difference."""
    p = float(p)
    return extra + 5 * math.sqrt(max(p * (1 - p), 1.0 / SAMPLES) / SAMPLES)


@pytest.mark.parametrize("scaled", [False, True])
def test_sampled_rz_matches_the_papers_formulas(scaled):
    # The paper's sums count v = hi (l0 = 13, probability 2^-13) as underflow wherever its
    # inequality reaches l0 = 13; the sampling counts it as nothing lost.
    for e_v in range(-14, 15):
        theory = underflow.underflow_theory(e_v, scaled)
        sampled = underflow.underflow_sampled(e_v, scaled, "rz", SAMPLES, rng=e_v + 50)
        for t, s in zip(theory, sampled):
            assert abs(s - float(t)) <= _tolerance(t, extra=2.0 ** -13), (e_v, scaled, t, s)


@pytest.mark.parametrize("scaled", [False, True])
def test_sampled_kernel_split_matches_the_round_to_nearest_law(scaled):
    for e_v in range(-14, 15):
        theory = underflow.underflow_theory(e_v, scaled, "rn")
        sampled = underflow.underflow_sampled(e_v, scaled, "rn", SAMPLES, rng=e_v + 90)
        for t, s in zip(theory, sampled):
            assert abs(s - float(t)) <= _tolerance(t), (e_v, scaled, t, s)


def test_round_to_nearest_doubles_gradual_underflow_but_not_underflow():
    # Under RN |v - hi| <= half an FP16 ulp: the residual sits one binade lower, so
    # P_{u+gu} is the paper's P_{u+gu}(e_v - 1), about twice its value. RN also rounds
    # everything up to 2^-25 to zero instead of below 2^-24, one binade lower too: P_u
    # stays the paper's. Both up to the residual law's edge masses.
    for e_v in range(-13, 15):
        rn_u, rn_gu = underflow.underflow_theory(e_v, rounding="rn")
        assert abs(rn_u - underflow.underflow_theory(e_v)[0]) <= F(1, 2 ** 12), e_v
        assert abs(rn_gu - underflow.underflow_theory(e_v - 1)[1]) <= F(1, 2 ** 10), e_v


def test_command_line_prints_the_tables(capsys):
    from ecgemm.numerics.__main__ import main
    assert main([]) == 0
    out = capsys.readouterr().out
    assert "mean 22.75 bits: P(23) = 3/4, P(22) = 1/4" in out
    assert "mean 22.25 bits: P(23) = 1/2, P(22) = 1/4, P(21) = 1/4" in out


def test_plot_writes_the_figures(tmp_path):
    pytest.importorskip("matplotlib")
    from ecgemm.numerics.__main__ import main
    assert main(["--plot", str(tmp_path)]) == 0
    for name in ("kept_mantissa", "underflow", "accumulation"):
        png = (tmp_path / f"numerics_{name}.png").read_bytes()
        assert png.startswith(b"\x89PNG") and len(png) > 10_000


def test_plot_without_matplotlib_says_how_to_get_it(tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import fails
    from ecgemm.numerics.__main__ import main
    assert main(["--plot", str(tmp_path)]) == 2
    assert "pip install matplotlib" in capsys.readouterr().err
    assert not list(tmp_path.iterdir())
