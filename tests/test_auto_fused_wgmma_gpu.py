"""AUTO on the fused Hopper family (ECGEMM_FAMILY=fused_wgmma, its wide and narrow tiles) against
the numerics lab's model of it (ecgemm.numerics.wide_blocks with the tile's extents,
docs/numerics.md section 12): tf32tf32's bits on data the lab finds narrow; in a tile and stage
the lab marks, the exact FP32 path (every stage wide: the lab's fp32_path, bit for bit), and
tf32tf32's bits in every tile it does not mark; unpinned, at or below cuBLAS SGEMM's error on the
data of AUTO's gate on skinny long-k shapes, where the planner sends tf32tf32 there."""
import numpy as np
import pytest

import ecgemm
from ecgemm.numerics import fp32_path, wide_blocks

from bench.inputs import urand_pair
from test_auto_fused_gpu import GATE, NARROW, error_measure, product, same_bits, wide_data
from test_c_abi_gpu import cublas_sgemm, handle, torch  # noqa: F401 (handle: fixture)
from test_fused_wgmma_gpu import check_unaligned_operands_give_the_tma_bits

pytestmark = pytest.mark.gpu
if torch.cuda.get_device_capability() != (9, 0):
    pytest.skip("the fused family is built for sm_90a (H100/H200)", allow_module_level=True)


def tile_of(pin, m, n):
    """(rows of C, columns of C) one tile covers (plan_fused_wgmma, fused_wgmma_narrow)."""
    if pin == "fused_wgmma:narrow":
        cols = next(w for w in (16, 32, 64) if min(m, n) <= w)
        return (128, cols) if m >= n else (cols, 128)  # swapped: the long side on the tile's rows
    if min(m, n) > 64:
        return 128, 128
    return (64, 128) if n >= m else (128, 64)  # 64 rows of the small side, swapped when it is n


@pytest.fixture(params=["fused_wgmma", "fused_wgmma:narrow"], ids=["wide", "narrow"])
def pin(request, monkeypatch):
    monkeypatch.setenv("ECGEMM_FAMILY", request.param)
    return request.param


def plan_text(a, b):
    return ecgemm.explain(torch.from_numpy(a).cuda(), torch.from_numpy(b).cuda(), mode="auto")


# The wide tiles (128 x 128; 64 x 128 swapped and not), the narrow ones (16, 32, 64 wide), split-K.
SHAPES = {"fused_wgmma": [(200, 160, 300), (48, 1000, 300), (300, 70, 40), (70, 20000, 90)],
          "fused_wgmma:narrow": [(300, 500, 12), (30, 300, 700), (1000, 4099, 64)]}


@pytest.mark.parametrize("data", list(NARROW))
@pytest.mark.parametrize("shape", range(4))
def test_narrow_data_gives_tf32tf32_s_bits(pin, data, shape):
    if shape >= len(SHAPES[pin]):
        pytest.skip("no such shape for this pin")
    m, k, n = SHAPES[pin][shape]
    a, b = NARROW[data](m, k, n)
    assert not wide_blocks(a, b, *tile_of(pin, m, n)).any()  # the premise, by the lab's rule
    assert "wide=fp32" in plan_text(a, b)
    assert same_bits(product("auto", a, b), product("tf32tf32", a, b))


@pytest.mark.parametrize("batch", [False, True])
def test_only_the_tiles_and_stages_the_lab_marks_take_fp32(pin, batch):
    # An outlier in op(A) marks its tile row in its stage, one in op(B) its tile column in its.
    if pin == "fused_wgmma":
        (m, k, n), outliers = (300, 160, 200), {"a": (140, 50), "b": (100, 7)}
    else:  # the narrow side (m) is one tile row: only op(B)'s outlier leaves tiles unmarked
        (m, k, n), outliers = (40, 160, 300), {"b": (100, 140)}
    rows, cols = tile_of(pin, m, n)
    a, b = urand_pair(m, k, n, seed=7)
    a = np.abs(a)
    if "a" in outliers:
        a[outliers["a"]] = 2.0 ** 40
    b[outliers["b"]] = 2.0 ** -60
    marked = wide_blocks(a, b, rows, cols).any(axis=2)
    touched = np.kron(marked, np.ones((rows, cols), dtype=bool))[:m, :n].astype(bool)
    assert touched.any() and not touched.all()
    if batch:
        a, b = np.stack([a, a]), np.stack([b, b])
    auto, tf32 = product("auto", a, b), product("tf32tf32", a, b)
    assert same_bits(auto[..., ~touched], tf32[..., ~touched])
    assert not same_bits(auto[..., touched], tf32[..., touched])
    assert np.isfinite(auto).all()


@pytest.mark.parametrize("m,k,n", [(70, 64, 66), (40, 64, 140), (140, 64, 40), (130, 40, 20)])
def test_stages_wide_everywhere_are_the_exact_fp32_path(pin, m, k, n):
    # A batch (unsplit): every output's stages, each summed from zero and added in order.
    if pin == "fused_wgmma:narrow" and min(m, n) > 64:
        pytest.skip("no narrow side")
    a, b = wide_data((2, m, k)), wide_data((2, k, n))
    for z in range(2):
        assert wide_blocks(a[z], b[z], *tile_of(pin, m, n)).all()
    got = product("auto", a, b)
    for z in range(2):
        assert same_bits(got[z], fp32_path(a[z], b[z])), z


@pytest.mark.parametrize("data", list(GATE))
@pytest.mark.parametrize("m,k,n", [(64, 4096, 2048), (2048, 4096, 64), (40, 8192, 6000)])
def test_auto_at_or_below_sgemm_on_the_gate_s_data_where_the_planner_sends_it(data, m, k, n):
    # Unpinned, on one skinny side against a long k (fused_wgmma's shapes for tf32tf32). Pinned
    # there at k = 300 both products and FP32 stages ran above SGEMM's error (bench/results/
    # auto-wgmma-2026-11-27): tf32tf32's products at short k are the every-shape issue's.
    a_host, b_host = GATE[data](m, k, n)
    a, b = torch.from_numpy(a_host).cuda(), torch.from_numpy(b_host).cuda()
    errors = error_measure(a, b)
    route = ecgemm.explain(a, b, mode="auto")
    auto, sgemm = errors(ecgemm.matmul(a, b, mode="auto")), errors(cublas_sgemm(a, b))
    assert auto[0] <= sgemm[0] and auto[1] <= sgemm[1], (auto, sgemm, route)


def put_outliers(a, b):
    """One 2^40 in A and one 2^-60 in B (stored coordinates): a few tiles and stages wide."""
    a[a.shape[0] // 2, a.shape[1] // 3] = 2.0 ** 40
    b[b.shape[0] - 1, b.shape[1] // 2] = 2.0 ** -60


@pytest.mark.parametrize("ta,tb", [("N", "N"), ("N", "T"), ("T", "T")])
@pytest.mark.parametrize("m,n,k", [(130, 257, 300), (300, 64, 2000), (1, 700, 513)])
def test_wide_stages_of_class_mapped_and_copied_operands_give_the_tma_bits(handle, monkeypatch, ta, tb,
                                                                          m, n, k):
    # The raw pass has one form for TMA tiles and another for class maps and copies.
    monkeypatch.setenv("ECGEMM_FAMILY", "fused_wgmma")
    auto = check_unaligned_operands_give_the_tma_bits(handle, "auto", ta, tb, m, n, k, put_outliers)
    tf32 = check_unaligned_operands_give_the_tma_bits(handle, "tf32tf32", ta, tb, m, n, k, put_outliers)
    assert not torch.equal(auto, tf32)  # the outliers' stages took the FP32 path
