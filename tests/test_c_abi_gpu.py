"""The C ABI on a GPU, driven through ctypes with PyTorch for device memory and for
the references: an FP64 product and cuBLAS SGEMM on the same FP32 inputs."""
import ctypes
import math

import numpy as np
import pytest

from _capi import MODES, OP, STATUS, load

pytestmark = pytest.mark.gpu
torch = pytest.importorskip("torch", reason="the C-ABI GPU tests use PyTorch for device memory and cuBLAS")
if not torch.cuda.is_available():
    pytest.skip("no CUDA GPU", allow_module_level=True)

lib = load()
U = 2.0 ** -24
FP32_CLASS = ("tf32tf32", "halfhalf", "fp32", "auto")


@pytest.fixture(scope="module")
def handle():
    h = ctypes.c_void_p()
    assert lib.ecgemm_create(ctypes.byref(h)) == STATUS["SUCCESS"]
    yield h
    assert lib.ecgemm_destroy(h) == STATUS["SUCCESS"]


class ColMajor:
    """A rows x cols column-major matrix with leading dimension ld, `offset` floats
    into a NaN-poisoned device buffer (so misaligned bases and padding are tested)."""

    def __init__(self, values, ld, offset=0, gen=None):
        rows, cols = values.shape
        self.rows, self.cols, self.ld, self.offset = rows, cols, ld, offset
        self.buf = torch.full((offset + ld * max(cols, 1) + 1,), float("nan"), device="cuda")
        self.view().copy_(values)

    def view(self):
        return self.buf[self.offset:].as_strided((self.rows, self.cols), (1, self.ld))

    @property
    def ptr(self):
        return self.buf.data_ptr() + 4 * self.offset


def host_scalar(x):
    return ctypes.c_float(x)


def sgemm(handle, mode, ta, tb, m, n, k, alpha, a, b, beta, c):
    lib.ecgemm_set_mode(handle, MODES[mode])
    al, be = host_scalar(alpha), host_scalar(beta)
    st = lib.ecgemm_sgemm(handle, OP[ta], OP[tb], m, n, k, ctypes.addressof(al), a.ptr, a.ld,
                          b.ptr, b.ld, ctypes.addressof(be), c.ptr, c.ld)
    torch.cuda.synchronize()
    return st


def op(x, t):
    return x.t() if t != "N" else x


def rel(x, ref):
    return (torch.linalg.norm((x.double() - ref).flatten()) / torch.linalg.norm(ref.flatten())).item()


def cublas_sgemm(a, b):
    old = torch.backends.cuda.matmul.allow_tf32
    torch.backends.cuda.matmul.allow_tf32 = False
    try:
        return a @ b
    finally:
        torch.backends.cuda.matmul.allow_tf32 = old


def make_problem(ta, tb, m, n, k, pad=0, offset=0, seed=0):
    g = torch.Generator(device="cuda").manual_seed(seed)
    a_shape = (m, k) if ta == "N" else (k, m)
    b_shape = (k, n) if tb == "N" else (n, k)
    av = torch.rand(a_shape, device="cuda", generator=g) * 2 - 1
    bv = torch.rand(b_shape, device="cuda", generator=g) * 2 - 1
    a = ColMajor(av, max(1, a_shape[0]) + pad, offset)
    b = ColMajor(bv, max(1, b_shape[0]) + pad, offset)
    return a, b


def expected_class_ok(mode, res, res_cublas, k):
    if mode == "fp32":  # plain sequential FMA over k: error grows like u*sqrt(k)
        return res <= max(1.25 * res_cublas, 2 * U * math.sqrt(k))
    if mode in FP32_CLASS:
        return res <= max(1.25 * res_cublas, 4 * U)
    if mode == "markidis":
        return res <= 2e-5
    return 1e-5 <= res <= 2e-3  # one pass: TF32/FP16 class, visibly not FP32


SHAPES = [(1, 1, 1), (7, 33, 127), (127, 129, 65), (33, 19, 4097), (130, 257, 300)]
# The corrected modes run skinny/small shapes on other families (planner.cpp's rule);
# "tc" pins them to the plane family (ECGEMM_FAMILY) so that it is tested on every shape too.
MODE_ROUTES = [(mode, "rule") for mode in MODES] + [("tf32tf32", "tc"), ("halfhalf", "tc"), ("auto", "tc")]


def use_route(monkeypatch, route):
    if route == "tc":
        monkeypatch.setenv("ECGEMM_FAMILY", "planes")
    else:
        monkeypatch.delenv("ECGEMM_FAMILY", raising=False)


@pytest.mark.parametrize("mode,route", MODE_ROUTES)
@pytest.mark.parametrize("ta,tb", [("N", "N"), ("N", "T"), ("T", "N"), ("T", "T")])
@pytest.mark.parametrize("m,n,k", SHAPES)
def test_modes_transposes_ragged(handle, monkeypatch, mode, route, ta, tb, m, n, k):
    use_route(monkeypatch, route)
    pad, offset = (3, 1) if (m + n) % 2 else (0, 0)  # half the cases padded and misaligned
    check_product(handle, mode, ta, tb, m, n, k, pad, offset, seed=m * 7 + n)


def check_product(handle, mode, ta, tb, m, n, k, pad, offset, seed):
    """One call with beta = 0 over a NaN-poisoned C: every element written, the mode's
    accuracy class against FP64 and cuBLAS SGEMM, the padding rows of C untouched."""
    a, b = make_problem(ta, tb, m, n, k, pad, offset, seed=seed)
    c = ColMajor(torch.full((m, n), float("nan"), device="cuda"), m + pad, offset)
    assert sgemm(handle, mode, ta, tb, m, n, k, 1.0, a, b, 0.0, c) == STATUS["SUCCESS"]
    opa, opb = op(a.view(), ta), op(b.view(), tb)
    ref = opa.double() @ opb.double()
    got = c.view()
    assert torch.isfinite(got).all(), "unwritten or NaN elements in C"
    res, res_cublas = rel(got, ref), rel(cublas_sgemm(opa, opb), ref)
    assert expected_class_ok(mode, res, res_cublas, k), (res, res_cublas)
    # rows m..ldc-1 of C (the padding) are never touched
    pad_rows = c.buf[offset:offset + c.ld * n].view(n, c.ld)[:, m:]
    assert torch.isnan(pad_rows).all()


def check_nan_inf_alpha_beta(handle, mode, m, n, k):
    """NaN and ±Inf in A and B land where cuBLAS SGEMM puts them, with alpha and beta; the
    finite elements stay FP32-close."""
    a, b = make_problem("N", "N", m, n, k, seed=5)
    a.view().abs_()
    b.view().abs_().add_(0.01)  # positive B: Inf in A gives +Inf, never Inf - Inf
    a.view()[2, 7] = float("nan")
    a.view()[5, 3] = float("inf")
    a.view()[9, 1] = -float("inf")
    b.view()[4, 11] = float("nan")
    c0 = torch.rand((m, n), device="cuda")
    c = ColMajor(c0, m)
    assert sgemm(handle, mode, "N", "N", m, n, k, 0.5, a, b, -2.0, c) == 0
    ref = 0.5 * cublas_sgemm(a.view(), b.view()) - 2.0 * c0
    got = c.view()
    assert torch.equal(torch.isnan(got), torch.isnan(ref))
    assert torch.equal(torch.isinf(got), torch.isinf(ref))
    fin = torch.isfinite(ref)
    assert rel(got[fin], ref[fin].double()) < 1e-5


@pytest.mark.parametrize("mode", list(MODES))
def test_alpha_beta(handle, mode):
    m, n, k = 65, 70, 129
    a, b = make_problem("N", "T", m, n, k, seed=3)
    c0 = torch.rand((m, n), device="cuda") - 0.5
    c = ColMajor(c0, m)
    assert sgemm(handle, mode, "N", "T", m, n, k, -1.5, a, b, 0.75, c) == 0
    ref = -1.5 * (a.view().double() @ b.view().t().double()) + 0.75 * c0.double()
    tol = 1e-6 if mode in FP32_CLASS else 3e-3
    assert rel(c.view(), ref) < tol


@pytest.mark.parametrize("mode", list(MODES))
def test_alpha_zero_scales_c_and_ignores_nan_inputs(handle, mode):
    m, n, k = 17, 9, 33
    a, b = make_problem("N", "N", m, n, k, seed=4)
    a.view()[3, 5] = float("nan")
    c0 = torch.rand((m, n), device="cuda")
    c = ColMajor(c0, m)
    assert sgemm(handle, mode, "N", "N", m, n, k, 0.0, a, b, 2.0, c) == 0
    assert torch.equal(c.view(), 2.0 * c0)
    c.view().fill_(float("nan"))
    assert sgemm(handle, mode, "N", "N", m, n, k, 0.0, a, b, 0.0, c) == 0
    assert torch.equal(c.view(), torch.zeros_like(c0))


def test_k_zero_scales_c(handle):
    m, n = 5, 4
    c0 = torch.rand((m, n), device="cuda")
    c = ColMajor(c0, m + 2)
    one = ColMajor(torch.ones((m, 1), device="cuda"), m)
    assert sgemm(handle, "tf32tf32", "N", "N", m, n, 0, 1.0, one, one, 3.0, c) == 0
    assert torch.equal(c.view(), 3.0 * c0)


def test_m_zero_is_a_quick_return_that_touches_nothing(handle):
    c = ColMajor(torch.full((3, 3), float("nan"), device="cuda"), 3)
    before = c.buf.clone()
    al = host_scalar(1.0)
    st = lib.ecgemm_sgemm(handle, 0, 0, 0, 3, 3, ctypes.addressof(al), None, 1, None, 3,
                          ctypes.addressof(al), c.ptr, 3)
    assert st == STATUS["SUCCESS"]
    assert torch.equal(torch.isnan(c.buf), torch.isnan(before))


def test_bad_argument_leaves_c_untouched(handle):
    a, b = make_problem("N", "N", 8, 8, 8)
    c0 = torch.rand((8, 8), device="cuda")
    c = ColMajor(c0, 8)
    al = host_scalar(1.0)
    st = lib.ecgemm_sgemm(handle, 0, 0, 8, 8, 8, ctypes.addressof(al), a.ptr, 7, b.ptr, 8,
                          ctypes.addressof(al), c.ptr, 8)
    assert st == STATUS["INVALID_VALUE"] and lib.ecgemm_get_last_error_arg() == 8
    torch.cuda.synchronize()
    assert torch.equal(c.view(), c0)


@pytest.mark.parametrize("mode,route", MODE_ROUTES)
def test_nan_and_inf_propagate_like_sgemm(handle, monkeypatch, mode, route):
    use_route(monkeypatch, route)
    m, n, k = 40, 36, 50
    a, b = make_problem("N", "N", m, n, k, seed=5)
    a.view().abs_()
    b.view().abs_().add_(0.01)  # positive B: Inf in A gives +Inf, never Inf - Inf
    a.view()[2, 7] = float("nan")
    a.view()[5, 3] = float("inf")
    a.view()[9, 1] = -float("inf")
    b.view()[4, 11] = float("nan")
    c = ColMajor(torch.zeros((m, n), device="cuda"), m)
    assert sgemm(handle, mode, "N", "N", m, n, k, 1.0, a, b, 0.0, c) == 0
    ref = cublas_sgemm(a.view(), b.view())
    got = c.view()
    assert torch.equal(torch.isnan(got), torch.isnan(ref))
    assert torch.equal(torch.isinf(got), torch.isinf(ref))
    assert torch.equal(torch.sign(got[torch.isinf(got)]), torch.sign(ref[torch.isinf(ref)]))


def test_device_pointer_mode(handle):
    m, n, k = 33, 31, 70
    a, b = make_problem("T", "N", m, n, k, seed=6)
    c0 = torch.rand((m, n), device="cuda")
    c = ColMajor(c0, m)
    scalars = torch.tensor([0.5, -2.0], device="cuda")
    lib.ecgemm_set_mode(handle, MODES["tf32tf32"])
    assert lib.ecgemm_set_pointer_mode(handle, 1) == 0
    try:
        st = lib.ecgemm_sgemm(handle, 1, 0, m, n, k, scalars.data_ptr(), a.ptr, a.ld, b.ptr, b.ld,
                              scalars.data_ptr() + 4, c.ptr, c.ld)
        torch.cuda.synchronize()
    finally:
        lib.ecgemm_set_pointer_mode(handle, 0)
    assert st == 0
    ref = 0.5 * (a.view().t().double() @ b.view().double()) - 2.0 * c0.double()
    assert rel(c.view(), ref) < 1e-6


@pytest.mark.parametrize("shape", [(64, 64, 16384), (64, 64, 65536), (1024, 1024, 1024)])
@pytest.mark.parametrize("mode,route", [(m, r) for m, r in MODE_ROUTES if m in FP32_CLASS])
def test_long_k_as_accurate_as_cublas(handle, monkeypatch, mode, route, shape):
    use_route(monkeypatch, route)
    m, n, k = shape
    a, b = make_problem("N", "N", m, n, k, seed=k)
    c = ColMajor(torch.full((m, n), float("nan"), device="cuda"), m)
    assert sgemm(handle, mode, "N", "N", m, n, k, 1.0, a, b, 0.0, c) == 0
    ref = a.view().double() @ b.view().double()
    res, res_cublas = rel(c.view(), ref), rel(cublas_sgemm(a.view(), b.view()), ref)
    assert res <= 1.25 * res_cublas, (res, res_cublas)


@pytest.mark.parametrize("method", [0, 1, 2])
def test_device_split_equals_host_split_bit_for_bit(method):
    rng = np.random.default_rng(method)
    specials = np.array([0.0, -0.0, 1e-45, -1e-45, 1.17e-38, 3.4028235e38, -3.4028235e38,
                         np.inf, -np.inf, np.nan, 65504, 65519.99, 65520, 2.0 ** -14, 2.0 ** -24,
                         2.0 ** -25, 3 * 2.0 ** -26, 1 + 2.0 ** -11, 1 + 3 * 2.0 ** -12],
                        dtype=np.float32)
    bits = rng.integers(0, 2 ** 32, size=200_000, dtype=np.uint64).astype(np.uint32)
    x = np.concatenate([specials, bits.view(np.float32),
                        (rng.standard_normal(100_000) * 10.0 ** rng.integers(-12, 12, 100_000)).astype(np.float32)])
    hi_h, lo_h = np.empty_like(x), np.empty_like(x)
    assert lib.ecgemm_internal_split_host(method, x.ctypes.data, hi_h.ctypes.data, lo_h.ctypes.data, x.size) == 0
    xd = torch.from_numpy(x).cuda()
    hi_d, lo_d = torch.empty_like(xd), torch.empty_like(xd)
    assert lib.ecgemm_internal_split_device(method, xd.data_ptr(), hi_d.data_ptr(), lo_d.data_ptr(), x.size) == 0
    assert np.array_equal(hi_h.view(np.uint32), hi_d.cpu().numpy().view(np.uint32))
    assert np.array_equal(lo_h.view(np.uint32), lo_d.cpu().numpy().view(np.uint32))


# --- skinny and long-k shapes: split-K on the SIMT cores, the corrected modes' route there ---

SKINNY = [(64, 64, 1 << 18), (33, 95, 70001), (1, 200, 30000), (130, 64, 20000), (64, 300, 9000),
          (100, 128, 20000)]


@pytest.mark.parametrize("mode", list(MODES))
@pytest.mark.parametrize("ta,tb", [("N", "N"), ("T", "T")])
@pytest.mark.parametrize("m,n,k", SKINNY)
def test_skinny_long_k_against_fp64_and_cublas(handle, mode, ta, tb, m, n, k):
    pad, offset = (2, 3) if ta == "T" else (0, 0)
    a, b = make_problem(ta, tb, m, n, k, pad, offset, seed=k + m)
    c = ColMajor(torch.full((m, n), float("nan"), device="cuda"), m + pad, offset)
    assert sgemm(handle, mode, ta, tb, m, n, k, 1.0, a, b, 0.0, c) == STATUS["SUCCESS"]
    opa, opb = op(a.view(), ta), op(b.view(), tb)
    ref = opa.double() @ opb.double()
    res, res_cublas = rel(c.view(), ref), rel(cublas_sgemm(opa, opb), ref)
    if mode in FP32_CLASS:  # split-K and two-level sums: no sqrt(k) allowance, fp32 included
        assert res <= max(1.25 * res_cublas, 4 * U), (res, res_cublas)
    else:
        assert expected_class_ok(mode, res, res_cublas, k), (res, res_cublas)
    pad_rows = c.buf[offset:offset + c.ld * n].view(n, c.ld)[:, m:]
    assert torch.isnan(pad_rows).all()


@pytest.mark.parametrize("mode", FP32_CLASS)
@pytest.mark.parametrize("ta,tb", [("N", "N"), ("N", "T"), ("T", "N"), ("T", "T")])
@pytest.mark.parametrize("m,n,k", [(37, 70, 5003), (129, 65, 3000), (65, 129, 4096), (200, 150, 2000)])
def test_split_k_alpha_beta_ragged_padded(handle, mode, ta, tb, m, n, k):
    a, b = make_problem(ta, tb, m, n, k, pad=5, offset=1, seed=m * n)
    c0 = torch.rand((m, n), device="cuda") - 0.5
    c = ColMajor(c0, m + 3, offset=2)
    assert sgemm(handle, mode, ta, tb, m, n, k, -1.5, a, b, 0.75, c) == STATUS["SUCCESS"]
    ref = -1.5 * (op(a.view(), ta).double() @ op(b.view(), tb).double()) + 0.75 * c0.double()
    assert rel(c.view(), ref) < 1e-6
    pad_rows = c.buf[2:2 + c.ld * n].view(n, c.ld)[:, m:]
    assert torch.isnan(pad_rows).all()


@pytest.mark.parametrize("mode", FP32_CLASS)
def test_split_k_is_deterministic_and_propagates_nan_inf(handle, mode):
    m, n, k = 48, 40, 40000
    a, b = make_problem("N", "N", m, n, k, seed=11)
    a.view().abs_()
    b.view().abs_().add_(0.01)
    a.view()[2, 30000] = float("nan")
    a.view()[5, 12345] = float("inf")
    a.view()[9, 39999] = -float("inf")
    b.view()[4, 11] = float("nan")
    c1 = ColMajor(torch.full((m, n), float("nan"), device="cuda"), m)
    c2 = ColMajor(torch.full((m, n), float("nan"), device="cuda"), m)
    assert sgemm(handle, mode, "N", "N", m, n, k, 1.0, a, b, 0.0, c1) == 0
    assert sgemm(handle, mode, "N", "N", m, n, k, 1.0, a, b, 0.0, c2) == 0
    assert torch.equal(c1.view().view(torch.int32), c2.view().view(torch.int32))  # bit for bit
    ref = cublas_sgemm(a.view(), b.view())
    got = c1.view()
    assert torch.equal(torch.isnan(got), torch.isnan(ref))
    assert torch.equal(torch.isinf(got), torch.isinf(ref))
    assert torch.equal(torch.sign(got[torch.isinf(got)]), torch.sign(ref[torch.isinf(ref)]))


@pytest.mark.parametrize("mode", FP32_CLASS)
def test_split_k_device_pointer_mode(handle, mode):
    m, n, k = 50, 33, 30000
    a, b = make_problem("T", "N", m, n, k, seed=12)
    c0 = torch.rand((m, n), device="cuda")
    c = ColMajor(c0, m)
    scalars = torch.tensor([0.5, -2.0, 0.0], device="cuda")
    lib.ecgemm_set_mode(handle, MODES[mode])
    assert lib.ecgemm_set_pointer_mode(handle, 1) == 0
    try:
        st = lib.ecgemm_sgemm(handle, 1, 0, m, n, k, scalars.data_ptr(), a.ptr, a.ld, b.ptr, b.ld,
                              scalars.data_ptr() + 4, c.ptr, c.ld)
        torch.cuda.synchronize()
        assert st == 0
        ref = 0.5 * (a.view().t().double() @ b.view().double()) - 2.0 * c0.double()
        assert rel(c.view(), ref) < 1e-6
        # device alpha = 0: A and B are not used (NaN there must not show), C = beta * C
        a.view()[0, 0] = float("nan")
        before = c.view().clone()
        st = lib.ecgemm_sgemm(handle, 1, 0, m, n, k, scalars.data_ptr() + 8, a.ptr, a.ld, b.ptr, b.ld,
                              scalars.data_ptr() + 4, c.ptr, c.ld)
        torch.cuda.synchronize()
        assert st == 0
        assert torch.equal(c.view(), -2.0 * before)
    finally:
        lib.ecgemm_set_pointer_mode(handle, 0)


@pytest.mark.parametrize("mode", FP32_CLASS)
def test_split_k_within_a_small_user_workspace(mode):
    """A user workspace cannot grow: the SIMT route splits k only as far as it fits."""
    lib.ecgemm_set_workspace.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t]
    m, n, k = 64, 64, 1 << 17
    h = ctypes.c_void_p()
    assert lib.ecgemm_create(ctypes.byref(h)) == 0
    try:
        lib.ecgemm_set_mode(h, MODES[mode])
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
            c = ColMajor(torch.full((m, n), float("nan"), device="cuda"), m)
            assert sgemm(h, mode, "N", "N", m, n, k, 1.0, a, b, 0.0, c) == STATUS["SUCCESS"]
            res = rel(c.view(), ref)
            if room >= 2 * 4 * m * n:
                assert res <= max(1.25 * res_cublas, 4 * U), (room, res, res_cublas)
            else:  # no room for partials: one unsplit (two-level) sum, held to plain FP32's bound
                assert res <= 2 * U * math.sqrt(k), (room, res, res_cublas)
            assert lib.ecgemm_set_workspace(h, None, 0) == 0
    finally:
        assert lib.ecgemm_destroy(h) == 0
