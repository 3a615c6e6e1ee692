"""AUTO on the fused mma.sync family, both tiles pinned, against the numerics lab's model of it
(ecgemm.numerics.auto_fused, docs/numerics.md section 12): tf32tf32's bits in every block of C
the lab finds narrow, the exact FP32 path's bits in blocks wide in every stage, the two tiles
alike; NaN and Inf where SGEMM puts them; and, unpinned, at or below cuBLAS SGEMM's error on
the data of AUTO's gate (issue 26, bench/auto_gate.py)."""
import numpy as np
import pytest

import ecgemm
from ecgemm.numerics import fp32_path, wide_blocks

from bench.inputs import EXP_TYPES, exp_pair, outlier_rows, rows_scaled, urand_pair
from test_c_abi_gpu import check_nan_inf_alpha_beta, cublas_sgemm, handle, torch  # noqa: F401

pytestmark = pytest.mark.gpu
if torch.cuda.get_device_capability()[0] < 8:
    pytest.skip("mma.sync with TF32 needs sm_80 or newer", allow_module_level=True)

TILES = [64, 32]
RNG = np.random.default_rng(12)


@pytest.fixture(params=TILES, ids=["tile64", "tile32"])
def tile(request, monkeypatch):
    monkeypatch.setenv("ECGEMM_FAMILY", f"fused_mma:{request.param}")
    return request.param


def product(mode, a, b):
    """ecgemm.matmul of NumPy operands on the GPU (3-D: a batch, never split on this family)."""
    c = ecgemm.matmul(torch.from_numpy(a).cuda(), torch.from_numpy(b).cuda(), mode=mode)
    torch.cuda.synchronize()
    return c.cpu().numpy()


def same_bits(x, y):
    return np.array_equal(x.view(np.uint32), y.view(np.uint32))


def wide_data(shape):
    """urand(-1, 1) times 2^e, e ~ UniformInt[-40, 40]: nearly every run of 8 spans more than 32 binades."""
    return (RNG.uniform(-1, 1, shape) * 2.0 ** RNG.integers(-40, 41, shape)).astype(np.float32)


NARROW = {
    "urand": lambda m, k, n: urand_pair(m, k, n, seed=1),
    "type 1": lambda m, k, n: exp_pair(1, m, k, n, seed=1),
    "type 3": lambda m, k, n: exp_pair(3, m, k, n, seed=3),
    "rows 2^-100..2^100": lambda m, k, n: rows_scaled(m, k, n, -100, 100, seed=100),
}


@pytest.mark.parametrize("data", list(NARROW))
@pytest.mark.parametrize("m,k,n", [(96, 160, 70), (130, 1000, 257), (33, 4099, 40)])
def test_narrow_data_gives_tf32tf32_s_bits(tile, data, m, k, n):
    a, b = NARROW[data](m, k, n)
    assert not wide_blocks(a, b).any()  # the premise, by the lab's rule
    assert same_bits(product("auto", a, b), product("tf32tf32", a, b))


@pytest.mark.parametrize("batch", [False, True])
def test_only_the_blocks_the_lab_marks_take_fp32(tile, batch):
    a, b = urand_pair(96, 160, 70, seed=7)
    a = np.abs(a)
    a[40, 50] = 2.0 ** 40     # row block 1 (rows 32..63), stage 1 (k 32..63)
    b[100, 66] = 2.0 ** -60   # column block 2 (columns 64..69), stage 3 (k 96..127)
    wide = wide_blocks(a, b)
    assert wide[1, :, 1].all() and wide[:, 2, 3].all() and wide.sum() == 6  # nothing else
    if batch:
        a, b = np.stack([a, a]), np.stack([b, b])
    auto, tf32 = product("auto", a, b), product("tf32tf32", a, b)
    touched = np.zeros((96, 70), dtype=bool)
    touched[32:64, :] = True
    touched[:, 64:] = True
    assert same_bits(auto[..., ~touched], tf32[..., ~touched])
    assert not same_bits(auto[..., 32:64, :], tf32[..., 32:64, :])
    assert np.isfinite(auto).all()


def test_blocks_wide_in_every_stage_are_the_exact_fp32_path(tile):
    # A batch (unsplit), 2 x 2 blocks of C (the second of each partly outside C), 2 stages.
    a, b = wide_data((2, 40, 64)), wide_data((2, 64, 36))
    for z in range(2):
        assert wide_blocks(a[z], b[z]).all()
    got = product("auto", a, b)
    for z in range(2):
        assert same_bits(got[z], fp32_path(a[z], b[z])), z


def test_the_tiles_give_the_same_bits_on_mixed_data(monkeypatch):
    # A batch is not split: each output sums the same stages in the same order in either tile,
    # and on these data every block is wide, so both take SGEMM's arithmetic (the tiles'
    # Tensor Core products differ: the 32-wide tile compensates its promotion).
    a, b = outlier_rows(70, 100, 45, 40, seed=4)
    b[:, 3] *= np.float32(2.0 ** -50)
    a, b = np.stack([a, a[::-1]]), np.stack([b, b])
    out = {}
    for t in TILES:
        monkeypatch.setenv("ECGEMM_FAMILY", f"fused_mma:{t}")
        out[t] = product("auto", a, b)
    assert same_bits(out[32], out[64])


@pytest.mark.parametrize("m,n,k", [(40, 36, 50), (130, 200, 300), (100, 70, 3000)])
def test_nan_and_inf_land_where_sgemm_puts_them(handle, tile, m, n, k):
    check_nan_inf_alpha_beta(handle, "auto", m, n, k)


def error_measure(a, b):
    """A function of C: (relative Frobenius residual, max componentwise |C - C64| / (|A| |B|))
    against the FP64 product of a and b."""
    ref = a.double() @ b.double()
    bound = a.double().abs() @ b.double().abs()

    def errors(c):
        diff = (c.double() - ref).abs()
        return (torch.linalg.norm(diff) / torch.linalg.norm(ref)).item(), (diff / bound)[bound > 0].max().item()
    return errors


GATE = {f"type {t}": (lambda m, k, n, t=t: exp_pair(t, m, k, n, seed=t)) for t in EXP_TYPES}
GATE["rows 2^-100..2^100"] = lambda m, k, n: rows_scaled(m, k, n, -100, 100, seed=100)
GATE["one 2^40 outlier a row"] = lambda m, k, n: outlier_rows(m, k, n, 40, seed=40)


@pytest.mark.parametrize("data", list(GATE))
def test_auto_at_or_below_sgemm_on_the_gate_s_data(data):
    # bench/auto_gate.py's data at its small shape, the planner's route (fused_mma there).
    m, k, n = 256, 1024, 256
    a_host, b_host = GATE[data](m, k, n)
    a, b = torch.from_numpy(a_host).cuda(), torch.from_numpy(b_host).cuda()
    errors = error_measure(a, b)

    auto, sgemm = errors(ecgemm.matmul(a, b, mode="auto")), errors(cublas_sgemm(a, b))
    assert "fused_mma" in ecgemm.explain(a, b, mode="auto")
    # The outlier rows too, since the split-K reducer adds in FP64 (bench/results/README.md#fp64-reduce).
    assert auto[0] <= sgemm[0] and auto[1] <= sgemm[1], (auto, sgemm)
