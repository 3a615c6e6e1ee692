"""The fused mma.sync family (FP32 tiles staged by cp.async, split in registers;
ECGEMM_FAMILY=fused_mma:64 and fused_mma:32, each of its tiles) on the corrected modes, every
transpose, 16-byte and 4-byte copies, ragged edges, split-K and both batch forms, against an
FP64 product and cuBLAS SGEMM on the same inputs; and on the one-pass modes and Markidis
(64-wide tile only), whose batches it runs where the wgmma families are absent."""
import pytest

import ecgemm

from test_c_abi_gpu import (STATUS, ColMajor, check_nan_inf_alpha_beta, check_product, cublas_sgemm,
                            handle, make_problem, rel, sgemm, torch)  # noqa: F401 (handle: fixture)
from test_c_batched_gpu import NAN, Stack, batched, check_batch, op, operands

pytestmark = pytest.mark.gpu
if torch.cuda.get_device_capability()[0] < 8:
    pytest.skip("mma.sync with TF32 needs sm_80 or newer", allow_module_level=True)

CORRECTED = ["tf32tf32", "halfhalf", "auto"]  # AUTO runs tf32tf32's products on this family
OTHER_MODES = ["tf32", "fp16", "markidis"]
LAYOUTS = [("N", "N"), ("N", "T"), ("T", "N"), ("T", "T")]
# One tile and less; ragged tiles; one k stage and a ragged last one; split-K (few tiles,
# long k) with a ragged last split: on sm_90, 130 x 257 x 300 and 1 x 700 x 513 reduce 8
# splits in a cluster, 300 x 390 x 1000 adds 15 through partials one thread an output,
# the longer ones 16 and more through the grouped reduction.
SHAPES = [(1, 1, 1), (64, 64, 64), (130, 257, 300), (1, 700, 513), (257, 129, 64 * 37 + 5),
          (33, 40, 20000), (128, 128, 16384 + 17), (300, 390, 1000)]


TILES = [64, 32]


@pytest.fixture(autouse=True, params=TILES, ids=["tile64", "tile32"])
def tile(request, monkeypatch):
    monkeypatch.setenv("ECGEMM_FAMILY", f"fused_mma:{request.param}")
    return request.param


@pytest.fixture
def one_pass_tile(tile):
    if tile != 64:
        pytest.skip("the 32-wide tile runs the corrected methods only (fused_mma.hpp)")


@pytest.mark.parametrize("mode", CORRECTED)
@pytest.mark.parametrize("m,n,k", [(1, 1, 1), (100, 33, 70), (300, 390, 1000)])
def test_plan_takes_the_pinned_tile(tile, mode, m, n, k):
    a = torch.ones((m, k), device="cuda")
    b = torch.ones((k, n), device="cuda")
    products = "tf32tf32" if mode == "auto" else mode  # AUTO runs tf32tf32's products here
    assert f"family=fused_mma method={products} tile={tile}x{tile} " in ecgemm.explain(a, b, mode=mode)


@pytest.mark.parametrize("mode", CORRECTED)
@pytest.mark.parametrize("ta,tb", LAYOUTS)
@pytest.mark.parametrize("m,n,k", SHAPES)
@pytest.mark.parametrize("aligned", [True, False], ids=["vec16", "scalar"])
def test_against_fp64_and_cublas(handle, mode, ta, tb, m, n, k, aligned):
    pad, offset = (0, 0) if aligned else (3, 1)  # ld % 4 != 0 and a 4-byte offset: 4-byte copies
    check_product(handle, mode, ta, tb, m, n, k, pad, offset, seed=m * 7 + n + k)


@pytest.mark.parametrize("mode", OTHER_MODES)
@pytest.mark.parametrize("ta,tb", LAYOUTS)
@pytest.mark.parametrize("m,n,k", [(64, 64, 64), (130, 257, 300), (257, 129, 64 * 37 + 5),
                                   (33, 40, 20000)])
def test_other_modes_against_fp64_and_cublas(handle, one_pass_tile, mode, ta, tb, m, n, k):
    # Each mode's class (expected_class_ok): one pass visibly not FP32, Markidis between.
    check_product(handle, mode, ta, tb, m, n, k, 0, 0, seed=m + n + k)


@pytest.mark.parametrize("form", ["strided", "array"])
@pytest.mark.parametrize("mode", CORRECTED + OTHER_MODES)
@pytest.mark.parametrize("ta,tb", LAYOUTS)
@pytest.mark.parametrize("m,n,k,ld_pad", [(64, 64, 64, 0), (7, 33, 127, 1), (65, 130, 300, 0)])
def test_batches(handle, tile, form, mode, ta, tb, m, n, k, ld_pad):
    if tile == 32 and mode in OTHER_MODES:
        pytest.skip("the 32-wide tile runs the corrected methods only (fused_mma.hpp)")
    if ld_pad:  # padded ld, odd strides: the 4-byte path
        a, b, c = operands(ta, tb, m, n, k, count=3)
    else:  # packed, 16-byte aligned products: the 16-byte path
        a_shape = (m, k) if ta == "N" else (k, m)
        b_shape = (k, n) if tb == "N" else (n, k)
        a = Stack(3, *a_shape, a_shape[0], a_shape[0] * a_shape[1], seed=1)
        b = Stack(3, *b_shape, b_shape[0], b_shape[0] * b_shape[1], seed=2)
        c = Stack(3, m, n, m, m * n + 4, fill=NAN)
    assert batched(handle, form, mode, ta, tb, m, n, k, 1.0, a, b, 0.0, c) == STATUS["SUCCESS"]
    check_batch(mode, ta, tb, k, a, b, c)


@pytest.mark.parametrize("mode", ["tf32tf32", "halfhalf"])
@pytest.mark.parametrize("m,n,k", [(40, 36, 50), (130, 200, 300), (100, 70, 3000)])
def test_nan_inf_alpha_beta(handle, mode, m, n, k):
    check_nan_inf_alpha_beta(handle, mode, m, n, k)


# Ragged tiles whose k splits the planner reduces in a thread-block cluster on sm_90, each
# count from 2 to 8 (on 132 SMs; m x n x k, column-major): the CTAs of a cluster share the
# outputs C has, not the whole tile (a 64-wide tile over n = 3 left some CTAs none).
CLUSTER_SHAPES = {32: [(215, 163, 123), (440, 31, 184), (130, 57, 221), (341, 52, 283), (107, 197, 332),
                       (479, 24, 408), (3, 650, 472)],
                  64: [(679, 245, 113), (496, 655, 394), (658, 349, 382), (96, 325, 264), (282, 123, 344),
                       (240, 565, 817), (155, 655, 981)]}


@pytest.mark.parametrize("mode", ["tf32tf32", "halfhalf"])
@pytest.mark.parametrize("index", range(7))
def test_cluster_reduced_splits(handle, tile, mode, index):
    m, n, k = CLUSTER_SHAPES[tile][index]
    a, b = make_problem("N", "N", m, n, k, seed=index)
    if torch.cuda.get_device_capability()[0] >= 9:
        assert " cluster " in ecgemm.explain(a.view(), b.view(), mode=mode)
    check_product(handle, mode, "N", "N", m, n, k, 0, 0, seed=index)  # every output written once
    c0 = torch.rand((m, n), device="cuda") - 0.5
    c = ColMajor(c0, m)
    assert sgemm(handle, mode, "N", "N", m, n, k, -1.5, a, b, 0.75, c) == STATUS["SUCCESS"]
    ref = -1.5 * (a.view().double() @ b.view().double()) + 0.75 * c0.double()
    assert rel(c.view(), ref) < 1e-6  # alpha and beta applied once, by the CTA that stores


@pytest.mark.parametrize("mode", ["tf32tf32", "halfhalf"])
@pytest.mark.parametrize("index", [0, 3, 6])
def test_unsplit_pin_runs_k_whole(handle, monkeypatch, tile, mode, index):
    # ECGEMM_FAMILY=fused_mma:<tile>/unsplit: the plan the planner prices beside a split one.
    m, n, k = CLUSTER_SHAPES[tile][index]
    monkeypatch.setenv("ECGEMM_FAMILY", f"fused_mma:{tile}/unsplit")
    a, b = make_problem("N", "N", m, n, k, seed=index)
    assert f"tile={tile}x{tile} splits=1 " in ecgemm.explain(a.view(), b.view(), mode=mode)
    check_product(handle, mode, "N", "N", m, n, k, 0, 0, seed=index)


@pytest.mark.parametrize("mode", ["tf32tf32", "halfhalf"])
def test_positive_data_long_k(handle, mode):
    # urand(0, 1): no cancellation to hide a biased (truncating) accumulation.
    m, n, k = 96, 80, 1 << 16
    a, b = make_problem("N", "N", m, n, k, seed=11)
    a.view().abs_()
    b.view().abs_()
    c = ColMajor(torch.full((m, n), float("nan"), device="cuda"), m)
    assert sgemm(handle, mode, "N", "N", m, n, k, 1.0, a, b, 0.0, c) == STATUS["SUCCESS"]
    ref = a.view().double() @ b.view().double()
    res, res_cublas = rel(c.view(), ref), rel(cublas_sgemm(a.view(), b.view()), ref)
    assert res <= res_cublas, (res, res_cublas)


@pytest.mark.parametrize("mode", ["tf32tf32", "halfhalf"])
@pytest.mark.parametrize("ta,tb", LAYOUTS)
@pytest.mark.parametrize("m,n,k", [(70, 45, 100), (33, 129, 31), (128, 64, 257), (40, 96, 40)])
@pytest.mark.parametrize("positive", [False, True], ids=["signed", "positive"])
def test_the_compensated_tile_is_the_more_accurate(handle, monkeypatch, tile, mode, ta, tb, m, n, k,
                                                   positive):
    # The same batch (not split) on both tiles: each output sums the same products in the same
    # order, but the 32-wide tile compensates its promotion and adds lo·lo
    # (docs/numerics.md section 3, "Short k"). Its error must be the smaller, on data that
    # cancels and on positive data, where nothing hides a biased sum.
    if tile != 32:
        pytest.skip("compares the 32-wide tile with the 64-wide one")
    a, b, c32 = operands(ta, tb, m, n, k, count=4)
    if positive:
        a.buf.abs_()
        b.buf.abs_()
    assert batched(handle, "strided", mode, ta, tb, m, n, k, 1.0, a, b, 0.0, c32) == STATUS["SUCCESS"]
    monkeypatch.setenv("ECGEMM_FAMILY", "fused_mma:64")
    c64 = Stack(4, m, n, c32.ld, c32.stride, fill=NAN)
    assert batched(handle, "strided", mode, ta, tb, m, n, k, 1.0, a, b, 0.0, c64) == STATUS["SUCCESS"]
    check_batch(mode, ta, tb, k, a, b, c32)
    check_batch(mode, ta, tb, k, a, b, c64)
    ref = op(a.views(), ta).double() @ op(b.views(), tb).double()
    assert rel(c32.views(), ref) < rel(c64.views(), ref)


def exact_lo_operand(rows, cols, g):
    # x = h + l exactly: h in [1, 2) of 5 bits (hi in both splits, FP16 and TF32), l of 11 bits at
    # 0.25-0.49 of an 11-bit hi's last place (lo, exact in both). Every lo is positive, so the lo·lo
    # products (~2^-24 of each a·b) all add; and every sum of hi·hi products fits FP32's 24 bits, so
    # the Tensor Core's truncation of those sums does not hide them (with hi of 11 bits spread over
    # binades it erred as much, coherently: bench/results/README.md#chain).
    h = (16 + torch.randint(0, 16, (rows, cols), generator=g, device="cuda")).double() / 16
    lo = (1024 + torch.randint(0, 1000, (rows, cols), generator=g, device="cuda")).double() * 2.0 ** -22
    return (h + lo).float(), h


@pytest.mark.parametrize("mode", ["tf32tf32", "halfhalf"])
@pytest.mark.parametrize("k", [40, 96, 300])
def test_the_compensated_tile_adds_lo_lo(monkeypatch, tile, mode, k):
    # Dropping lo·lo on these operands costs about u of |C|, coherently, and the exact product
    # rounded once about 0.4 of that: the 32-wide tile, which adds lo·lo (sm80/fragments.cuh:
    # mma_products), must err by less than 0.7 of it; the 64-wide tile, which drops it, by more
    # (the data do what they are built for).
    g = torch.Generator(device="cuda").manual_seed(k)
    m, n = 70, 45
    a, ha = exact_lo_operand(m, k, g)
    bt, hbt = exact_lo_operand(n, k, g)
    b, hb = bt.t().contiguous(), hbt.t()
    monkeypatch.setenv("ECGEMM_FAMILY", f"fused_mma:{tile}/unsplit")
    c = torch.full((m, n), float("nan"), device="cuda")
    ecgemm.matmul(a, b, mode=mode, out=c)
    ref = a.double() @ b.double()
    err = torch.linalg.norm(c.double() - ref)
    dropped = torch.linalg.norm((a.double() - ha) @ (b.double() - hb))
    assert dropped > 0.9 * 2.0 ** -24 * torch.linalg.norm(ref)  # the data hold what the test needs
    if tile == 32:
        assert err < 0.7 * dropped, (float(err), float(dropped))
    else:
        assert err > 0.7 * dropped, (float(err), float(dropped))
