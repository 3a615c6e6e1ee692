"""The GEMV route (one side of C at most 4 wide) on a GPU: both kernels (large operand
contiguous along k or along its long side), 16-byte and unaligned loads, k split inside the
CTA and across CTAs, the BLAS scalar rules, against an FP64 product and cuBLAS SGEMM on the
same inputs."""
import ctypes
import re

import pytest

from _capi import MODES, STATUS
from test_c_abi_gpu import (U, ColMajor, cublas_sgemm, handle, lib, make_problem, op, rel,  # noqa: F401
                            sgemm, torch)
from test_simt_stream_gpu import run_batch

pytestmark = pytest.mark.gpu
FP32_CLASS = ("tf32tf32", "halfhalf", "fp32")
NAN = float("nan")

# (long side, k): ragged lengths (not whole 4-runs or 128-line blocks), k below, at and
# far above one split's chunk, and a k that is not a multiple of 4.
LENGTHS = [(1, 1), (3, 5), (130, 129), (1000, 4099), (4097, 3000), (257, 70001)]


def componentwise(x, ref, mag):
    """max |x - ref| / (|op(A)| |op(B)|), element by element: an error measure that a sum's
    cancellation does not inflate."""
    return ((x.double() - ref).abs() / mag).max().item()


def assert_rounds_once(got, ref, mag, k):
    """Each output the FP32 value nearest its exact sum (gemv.cu keeps every sum in FP64 and rounds
    once): within half an FP32 ulp of the FP64 product, give or take FP64's own rounding of both
    sums. FP32 sums (one rounding a product) miss it on most outputs from k = 3 on."""
    mag32 = got.abs()
    ulp = (torch.nextafter(mag32, torch.full_like(mag32, float("inf"))) - mag32).double()
    err = (got.double() - ref).abs()
    bound = 0.5 * ulp + 4 * k * 2.0 ** -53 * mag
    worst = (err / bound).max().item()
    assert worst <= 1.0, ("not rounded once", worst)


def run_and_check(h, mode, ta, tb, m, n, k, pad, offset, seed, positive=False):
    a, b = make_problem(ta, tb, m, n, k, pad, offset, seed=seed)
    if positive:  # urand(0, 1): no cancellation, every rounding error shows
        a.view().abs_()
        b.view().abs_()
    c = ColMajor(torch.full((m, n), NAN, device="cuda"), m + pad, offset)
    assert sgemm(h, mode, ta, tb, m, n, k, 1.0, a, b, 0.0, c) == STATUS["SUCCESS"]
    opa, opb = op(a.view(), ta), op(b.view(), tb)
    ref = opa.double() @ opb.double()
    got = c.view()
    assert torch.isfinite(got).all(), "unwritten or NaN elements in C"
    theirs = cublas_sgemm(opa, opb)
    mag = opa.double().abs() @ opb.double().abs()
    cw, cw_cublas = componentwise(got, ref, mag), componentwise(theirs, ref, mag)
    assert cw <= max(1.25 * cw_cublas, 4 * U), ("componentwise", cw, cw_cublas)
    # The relative residual, over enough outputs or where the sums do not cancel much: on a few
    # outputs that cancel, either side's residual is noise (a dot product at k = 70001: cuBLAS
    # 5.0e-10, ecgemm 4.4e-7, both a few hundredths of u of sum |a_i b_i|).
    if m * n >= 64 or torch.linalg.norm(ref) >= torch.linalg.norm(mag) / 8:
        res, res_cublas = rel(got, ref), rel(theirs, ref)
        assert res <= max(1.25 * res_cublas, 4 * U), ("residual", res, res_cublas)
    from test_simt_stream_gpu import plan
    if plan(h, mode, ta, tb, m, n, k).startswith("family=gemv "):
        assert_rounds_once(got, ref, mag, k)
    pad_rows = c.buf[offset:offset + c.ld * n].view(n, c.ld)[:, m:]
    assert torch.isnan(pad_rows).all(), "C's padding rows were written"


@pytest.mark.parametrize("mode", FP32_CLASS)
@pytest.mark.parametrize("ta,tb", [("N", "N"), ("N", "T"), ("T", "N"), ("T", "T")])
@pytest.mark.parametrize("width", [1, 2, 3, 4])
@pytest.mark.parametrize("long_side", ["m", "n"])
@pytest.mark.parametrize("aligned", [True, False])
def test_every_layout_width_and_alignment(handle, mode, ta, tb, width, long_side, aligned):
    pad, offset = (0, 0) if aligned else (3, 1)
    for i, (length, k) in enumerate(LENGTHS[:5]):
        m, n = (length, width) if long_side == "m" else (width, length)
        run_and_check(handle, mode, ta, tb, m, n, k, pad, offset, seed=i + 10 * width)


@pytest.mark.parametrize("mode", FP32_CLASS)
@pytest.mark.parametrize("ta,tb", [("N", "N"), ("T", "T")])
@pytest.mark.parametrize("m,n,k", [(1, 4096, 4096), (4096, 1, 4096), (2, 257, 70001),
                                   (257, 4, 70001), (1, 64, 1 << 20), (64, 3, 1 << 18)])
@pytest.mark.parametrize("positive", [False, True])
def test_split_k_and_long_k(handle, mode, ta, tb, m, n, k, positive):
    run_and_check(handle, mode, ta, tb, m, n, k, 0, 0, seed=m + n, positive=positive)


@pytest.mark.parametrize("mode", FP32_CLASS)
@pytest.mark.parametrize("ta,tb", [("T", "N"), ("N", "T")])
@pytest.mark.parametrize("m,n,k", [(1, 300, 50), (300, 2, 40000), (2, 4100, 1500)])
def test_alpha_beta_and_alpha_zero(handle, mode, ta, tb, m, n, k):
    a, b = make_problem(ta, tb, m, n, k, pad=1, offset=1, seed=7)
    c0 = torch.rand((m, n), device="cuda") - 0.5
    c = ColMajor(c0, m + 1, offset=3)
    assert sgemm(handle, mode, ta, tb, m, n, k, -1.5, a, b, 0.75, c) == 0
    ref = -1.5 * (op(a.view(), ta).double() @ op(b.view(), tb).double()) + 0.75 * c0.double()
    assert rel(c.view(), ref) < 1e-6
    # alpha = 0: A and B are not referenced (a NaN there must not show), C = beta * C
    a.view()[0, 0] = NAN
    before = c.view().clone()
    assert sgemm(handle, mode, ta, tb, m, n, k, 0.0, a, b, 2.0, c) == 0
    assert torch.equal(c.view(), 2.0 * before)
    c.view().fill_(NAN)  # beta = 0: C is not read
    assert sgemm(handle, mode, ta, tb, m, n, k, 0.0, a, b, 0.0, c) == 0
    assert torch.equal(c.view(), torch.zeros_like(c0))


@pytest.mark.parametrize("mode", FP32_CLASS)
@pytest.mark.parametrize("m,n,k", [(1, 40, 50), (2, 100, 40000), (64, 3, 40000), (4100, 2, 1500)])
def test_nan_inf_like_sgemm_and_deterministic(handle, mode, m, n, k):
    a, b = make_problem("N", "N", m, n, k, seed=5)
    a.view().abs_()
    b.view().abs_().add_(0.01)  # positive B: Inf in A gives +Inf, never Inf - Inf
    a.view()[0, k // 3] = NAN
    a.view()[m - 1, k - 1] = float("inf")
    b.view()[k // 2, n - 1] = NAN
    c1 = ColMajor(torch.full((m, n), NAN, device="cuda"), m)
    c2 = ColMajor(torch.full((m, n), NAN, device="cuda"), m)
    assert sgemm(handle, mode, "N", "N", m, n, k, 1.0, a, b, 0.0, c1) == 0
    assert sgemm(handle, mode, "N", "N", m, n, k, 1.0, a, b, 0.0, c2) == 0
    assert torch.equal(c1.view().view(torch.int32), c2.view().view(torch.int32))  # bit for bit
    ref = cublas_sgemm(a.view(), b.view())
    got = c1.view()
    assert torch.equal(torch.isnan(got), torch.isnan(ref))
    assert torch.equal(torch.isinf(got), torch.isinf(ref))


@pytest.mark.parametrize("k", [100, 50000])
def test_device_pointer_mode(handle, k):
    m, n = 1, 1000
    a, b = make_problem("N", "T", m, n, k, seed=6)
    c0 = torch.rand((m, n), device="cuda")
    c = ColMajor(c0, m)
    scalars = torch.tensor([0.5, -2.0], device="cuda")
    lib.ecgemm_set_mode(handle, MODES["tf32tf32"])
    assert lib.ecgemm_set_pointer_mode(handle, 1) == 0
    try:
        st = lib.ecgemm_sgemm(handle, 0, 1, m, n, k, scalars.data_ptr(), a.ptr, a.ld, b.ptr, b.ld,
                              scalars.data_ptr() + 4, c.ptr, c.ld)
        torch.cuda.synchronize()
    finally:
        lib.ecgemm_set_pointer_mode(handle, 0)
    assert st == 0
    ref = 0.5 * (a.view().double() @ b.view().t().double()) - 2.0 * c0.double()
    assert rel(c.view(), ref) < 1e-6


def test_split_k_within_a_small_user_workspace():
    """A user workspace cannot grow: the GEMV route splits k only as far as it fits."""
    lib.ecgemm_set_workspace.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t]
    m, n, k = 1, 256, 1 << 18
    h = ctypes.c_void_p()
    assert lib.ecgemm_create(ctypes.byref(h)) == 0
    try:
        need = ctypes.c_size_t()
        assert lib.ecgemm_get_workspace_size(h, m, n, k, ctypes.byref(need)) == 0
        assert need.value >= 2 * 4 * m * n  # the plan splits k
        a, b = make_problem("N", "N", m, n, k, seed=13)
        ref = a.view().double() @ b.view().double()
        res_cublas = rel(cublas_sgemm(a.view(), b.view()), ref)
        for room in (need.value, 3 * 4 * m * n, 256):  # all splits, three planes, none
            ws = torch.empty(room // 4 + 64, device="cuda")
            base = (ws.data_ptr() + 255) // 256 * 256
            assert lib.ecgemm_set_workspace(h, base, room) == 0
            c = ColMajor(torch.full((m, n), NAN, device="cuda"), m)
            assert sgemm(h, "tf32tf32", "N", "N", m, n, k, 1.0, a, b, 0.0, c) == STATUS["SUCCESS"]
            assert rel(c.view(), ref) <= max(1.25 * res_cublas, 4 * U), room
    finally:
        assert lib.ecgemm_destroy(h) == 0


LAYOUTS = [("N", "N"), ("N", "T"), ("T", "N"), ("T", "T")]


@pytest.mark.parametrize("ta,tb", LAYOUTS)
@pytest.mark.parametrize("width", [1, 2, 3, 4])
@pytest.mark.parametrize("long_side", ["m", "n"])
def test_thin_side_staged_over_spans(gemv_route, ta, tb, width, long_side):
    """A CTA's k over several spans of staged thin values (gemv.cu: stage_k, 1024 or 2048 k a span
    along k at 2-4 thin columns; kLenSpan, 1024 rows, along the long side), unsplit (a workspace of
    256 bytes), k ragged: every output rounded once, C's padding untouched, in both kernels and
    every transpose of the thin side (one thin column along k is read a lane at a time)."""
    from test_simt_stream_gpu import plan
    lib.ecgemm_set_workspace.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t]
    length, k = 700, 2 * 4096 + 4 * 128 + 37
    m, n = (length, width) if long_side == "m" else (width, length)
    h = ctypes.c_void_p()
    assert lib.ecgemm_create(ctypes.byref(h)) == 0
    try:
        ws = torch.empty(1024, device="cuda")
        assert lib.ecgemm_set_workspace(h, ws.data_ptr(), 256) == 0
        route = plan(h, "tf32tf32", ta, tb, m, n, k)
        assert route.startswith("family=gemv ") and re.search(r"splits=1\b", route), route
        run_and_check(h, "tf32tf32", ta, tb, m, n, k, 3, 1, seed=width + 5 * len(long_side + ta + tb))
    finally:
        assert lib.ecgemm_destroy(h) == 0

# --- k split inside the CTA (plan_gemv: line_warps, row_lanes) ---------------------------------

# (m, n, k): few outputs against a long k, where the CTA's warps share each output's k: one to
# 58 outputs along the long side, 213 and 1366 along k; k not a multiple of a run (128) or a
# round; the thin side 1 to 4.
IN_CTA = [(1, 4, 587), (4, 1, 904), (1, 58, 725), (93, 1, 1106), (1, 93, 11751), (3, 491, 3396),
          (2, 17, 70001), (213, 1, 4275), (1366, 1, 912), (1, 5, 130)]


@pytest.mark.parametrize("mode", FP32_CLASS)
@pytest.mark.parametrize("ta,tb", LAYOUTS)
@pytest.mark.parametrize("m,n,k", IN_CTA)
@pytest.mark.parametrize("aligned", [True, False])
def test_k_split_inside_the_cta(handle, monkeypatch, mode, ta, tb, m, n, k, aligned):
    """Each layout's groups (warps a line, lanes a row) within the bound, C's padding untouched,
    and the same bits on a second call; "gemv:wide" (the fixed groups) within it too."""
    from test_simt_stream_gpu import plan

    pad, offset = (0, 0) if aligned else (3, 1)
    for pin in ("gemv", "gemv:wide"):
        monkeypatch.setenv("ECGEMM_FAMILY", pin)
        assert plan(handle, mode, ta, tb, m, n, k).startswith("family=gemv "), pin
        # urand(0, 1): few outputs with cancellation make a residual ratio noise
        run_and_check(handle, mode, ta, tb, m, n, k, pad, offset, seed=m * n + k, positive=True)
    a, b = make_problem(ta, tb, m, n, k, pad, offset, seed=k)
    c1, c2 = (ColMajor(torch.full((m, n), NAN, device="cuda"), m + pad, offset) for _ in range(2))
    for c in (c1, c2):
        assert sgemm(handle, mode, ta, tb, m, n, k, 1.0, a, b, 0.0, c) == STATUS["SUCCESS"]
    assert torch.equal(c1.view().view(torch.int32), c2.view().view(torch.int32))


@pytest.mark.parametrize("ta,tb", LAYOUTS)
def test_small_products_split_k_inside_the_cta_only(handle, gemv_route, ta, tb):
    """The first three of IN_CTA: one launch (no split across CTAs); along the long side, rows
    shared by fewer than 32 lanes (more row groups than the fixed 8)."""
    from test_simt_stream_gpu import plan

    for m, n, k in IN_CTA[:3]:
        text = plan(handle, "tf32tf32", ta, tb, m, n, k)
        assert "splits=1 " in text and "lanes=32 " not in text, text


# --- short k: the short-k kernel against the other FP32 routes ------------------------------------


@pytest.mark.parametrize("ta,tb", LAYOUTS)
@pytest.mark.parametrize("k", [1, 2, 5, 7, 8, 9, 13, 16])
@pytest.mark.parametrize("m,n", [(1, 1), (1, 300), (300, 1), (4, 129), (129, 3), (3, 1000)])
@pytest.mark.parametrize("positive", [False, True])
def test_short_k_at_or_below_the_other_fp32_routes(handle, monkeypatch, ta, tb, k, m, n, positive):
    """k <= 16 (gemv.cu: kShortMaxK): each output rounded once, so on every output at or below the
    error of simt's strip tile (one FP32 chain) below k = 8 and of fused_mma's FP32 form (chains of
    4, common/fp32_chains.hpp) from 8, which SGEMM's residual is measured against."""
    from test_simt_stream_gpu import plan

    a, b = make_problem(ta, tb, m, n, k, 3, 1, seed=m + n + k)
    if positive:
        a.view().abs_()
        b.view().abs_()
    other = ("simt", "tile=strips ") if k < 8 else ("fused_mma/fp32", "method=fp32 ")
    got = {}
    for pin, tile in (("gemv", ""), other):
        monkeypatch.setenv("ECGEMM_FAMILY", pin)
        text = plan(handle, "tf32tf32", ta, tb, m, n, k)
        assert text.startswith(f"family={pin.split('/')[0]} ") and tile in text, text
        c = ColMajor(torch.full((m, n), NAN, device="cuda"), m + 3, 1)
        assert sgemm(handle, "tf32tf32", ta, tb, m, n, k, 1.0, a, b, 0.0, c) == STATUS["SUCCESS"]
        got[pin] = c.view().clone()
    assert torch.isfinite(got["gemv"]).all()
    opa, opb = op(a.view(), ta).double(), op(b.view(), tb).double()
    ref, mag = opa @ opb, opa.abs() @ opb.abs()
    assert_rounds_once(got["gemv"], ref, mag, k)
    slack = 4 * k * 2.0 ** -53 * mag
    assert ((got["gemv"].double() - ref).abs() <= (got[other[0]].double() - ref).abs() + slack).all()


# --- along k, lines of 17 ... 256: lanes share a warp, lines numbered across a batch's products ---

LINES_K = [17, 32, 33, 64, 65, 71, 128, 129, 196, 256]


def line_lanes(k):
    """gemv.cu's plan_gemv: the fewest lanes (2 ... 16) that keep each at 16 or fewer k."""
    lanes = 2
    while lanes < 16 and 16 * lanes < k:
        lanes *= 2
    return lanes


@pytest.fixture
def lines_route(monkeypatch):
    monkeypatch.setenv("ECGEMM_FAMILY", "gemv:lines")


@pytest.mark.parametrize("k", LINES_K + [16, 257])
def test_short_lines_plan_lanes_a_line(handle, lines_route, monkeypatch, k):
    """Along k (A transposed, B not), 16 < k <= 256, "gemv:lines": a group of lanes a line, never
    split; outside that range, and under "gemv:wide", the other kernels."""
    from test_simt_stream_gpu import plan

    for m, n, batch in ((40, 1, 5), (3, 333, 1), (4096, 2, 1)):
        text = plan(handle, "tf32tf32", "T", "N", m, n, k, batch=batch)
        lanes = f"lanes={line_lanes(k)} " if 16 < k <= 256 else None
        assert (lanes in text and "splits=1 " in text) if lanes else "lanes=" not in text, text
    monkeypatch.setenv("ECGEMM_FAMILY", "gemv:wide")
    assert "lanes=" not in plan(handle, "tf32tf32", "T", "N", 40, 1, 71, batch=5)


@pytest.mark.parametrize("mode", FP32_CLASS)
@pytest.mark.parametrize("k", LINES_K)
@pytest.mark.parametrize("width", [1, 2, 3, 4])
@pytest.mark.parametrize("aligned", [True, False])
def test_short_lines(handle, lines_route, mode, k, width, aligned):
    """Both operands as the large one (a long m, a long n), 16-byte loads and scalar ones, random
    signs and positive data: within cuBLAS's componentwise error and residual."""
    pad, offset = (0, 0) if aligned else (3, 1)
    for i, (m, n) in enumerate(((1000, width), (width, 333))):
        for positive in (False, True):
            run_and_check(handle, mode, "T", "N", m, n, k, pad, offset, seed=k + 7 * width + i,
                          positive=positive)


@pytest.mark.parametrize("form", ["strided", "array"])
@pytest.mark.parametrize("m,n,k,count", [(40, 1, 71, 300), (2, 33, 40, 500), (161, 1, 158, 7),
                                         (3, 5, 256, 129), (1, 4, 17, 1000)])
@pytest.mark.parametrize("aligned", [True, False])
def test_short_lines_batches(handle, lines_route, form, m, n, k, count, aligned):
    """Blocks that span products (a product's lines end inside a block): each within the bound,
    nothing written outside them."""
    run_batch(handle, form, "T", "N", m, n, k, count, seed=m + k, mode="tf32tf32", aligned=aligned)


@pytest.mark.parametrize("m,k,n,count", [(40, 71, 1, 37), (33, 200, 3, 37), (7, 17, 2, 37), (40, 71, 1, 12552)])
def test_short_lines_batch_gives_each_product_alone_bit_for_bit(lines_route, m, k, n, count):
    """torch.bmm's layout (row-major A: along k): product z of a batch is the call made for it
    alone, bit for bit, though its lines share blocks with other products' in the batch; a batch
    of many waves (blocks=5, the streaming build) and one product (blocks=4) alike."""
    import ecgemm

    g = torch.Generator(device="cuda").manual_seed(m + k)
    a = torch.rand((count, m, k), device="cuda", generator=g) - 0.5
    b = torch.rand((count, k, n), device="cuda", generator=g) - 0.5
    route = ecgemm.explain(a, b, mode="tf32tf32")
    assert "lanes=" in route and ("blocks=5 " in route) == (count > 10000), route
    whole = ecgemm.matmul(a, b, mode="tf32tf32")
    for z in (0, 1, 17, count - 1):
        alone = ecgemm.matmul(a[z], b[z], mode="tf32tf32")
        assert torch.equal(whole[z].view(torch.int32), alone.view(torch.int32)), z


# --- batches: grid.z walks the products (never split) ---------------------------------------

# (m, n, k): rows and columns against long sides within and past a block's lines, k short
# and long, widths 1 to 4.
BATCHED = [(1, 405, 11), (1, 178, 400), (300, 1, 50), (4, 1000, 700), (3, 129, 33),
           (2, 2, 3000), (1, 4, 587), (213, 1, 4275)]


@pytest.fixture
def gemv_route(monkeypatch):
    monkeypatch.setenv("ECGEMM_FAMILY", "gemv")


@pytest.mark.parametrize("mode", FP32_CLASS)
@pytest.mark.parametrize("ta,tb", LAYOUTS)
@pytest.mark.parametrize("m,n,k", BATCHED)
@pytest.mark.parametrize("aligned", [True, False])
def test_batches(handle, gemv_route, mode, ta, tb, m, n, k, aligned):
    run_batch(handle, "strided", ta, tb, m, n, k, 7, seed=m + n + k, mode=mode, aligned=aligned)


@pytest.mark.parametrize("form,count", [("array", 1), ("array", 9), ("strided", 70000)])
def test_batch_forms_and_a_batch_of_two_launches(handle, gemv_route, form, count):
    """Pointer arrays (scalar loads); 70000 products: grid.z caps a launch at 65535."""
    run_batch(handle, form, "T", "N", 2, 33, 40, count, seed=count, mode="tf32tf32", aligned=True)


def test_batches_plan_gemv_unsplit(handle, gemv_route):
    from test_simt_stream_gpu import plan

    text = plan(handle, "tf32tf32", "N", "N", 1, 4096, 100000, batch=3)
    assert text.startswith("family=gemv ") and "splits=1 " in text, text


@pytest.mark.parametrize("mode", FP32_CLASS)
@pytest.mark.parametrize("ta,tb", LAYOUTS)
@pytest.mark.parametrize("k", [5, 130, 4099, 70001])
@pytest.mark.parametrize("aligned", [True, False])
def test_dot_products(handle, gemv_route, mode, ta, tb, k, aligned):
    """1 x k x 1: a vector stored with ld 1 is contiguous along k whatever its transpose flag,
    so it takes the along-k kernel (16-byte loads where aligned); padded, the other kernel."""
    pad, offset = (0, 0) if aligned else (3, 1)
    for positive in (False, True):
        run_and_check(handle, mode, ta, tb, 1, 1, k, pad, offset, seed=k, positive=positive)
