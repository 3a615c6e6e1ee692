"""The batched and 64-bit C entries on a GPU, and CUDA-graph capture: strided and
pointer-array batches in every mode, against an FP64 product and cuBLAS's batched
SGEMM (torch.bmm, TF32 off) on the same inputs."""
import ctypes

import pytest

from _capi import OP
from test_c_abi_gpu import MODES, STATUS, expected_class_ok, handle, lib, rel, torch  # noqa: F401

pytestmark = pytest.mark.gpu
NAN = float("nan")


class Stack:
    """`count` column-major rows x cols matrices with leading dimension ld, `stride`
    floats apart in one NaN-poisoned device buffer (stride 0: one matrix for all)."""

    def __init__(self, count, rows, cols, ld, stride, seed=None, fill=None):
        self.count, self.rows, self.cols, self.ld, self.stride = count, rows, cols, ld, stride
        extent = ld * max(cols, 1)
        self.buf = torch.full((stride * (count - 1) + extent + 1,), NAN, device="cuda")
        g = torch.Generator(device="cuda").manual_seed(seed or 0)
        for z in range(count if stride else 1):
            value = fill if fill is not None else torch.rand(rows, cols, device="cuda", generator=g) * 2 - 1
            self.view(z).copy_(value)

    def view(self, z):
        return self.buf[z * self.stride:].as_strided((self.rows, self.cols), (1, self.ld))

    def views(self):
        return torch.stack([self.view(z) for z in range(self.count)])

    def ptr(self, z=0):
        return self.buf.data_ptr() + 4 * z * self.stride

    def pointer_array(self):
        return torch.tensor([self.ptr(z) for z in range(self.count)], dtype=torch.int64, device="cuda")


def batched(handle, form, mode, ta, tb, m, n, k, alpha, a, b, beta, c):
    lib.ecgemm_set_mode(handle, MODES[mode])
    al, be = ctypes.c_float(alpha), ctypes.c_float(beta)
    if form == "strided":
        st = lib.ecgemm_sgemm_strided_batched(handle, OP[ta], OP[tb], m, n, k, ctypes.addressof(al),
                                              a.ptr(), a.ld, a.stride, b.ptr(), b.ld, b.stride,
                                              ctypes.addressof(be), c.ptr(), c.ld, c.stride, c.count)
    else:
        arrays = [x.pointer_array() for x in (a, b, c)]
        st = lib.ecgemm_sgemm_batched_64(handle, OP[ta], OP[tb], m, n, k, ctypes.addressof(al),
                                         arrays[0].data_ptr(), a.ld, arrays[1].data_ptr(), b.ld,
                                         ctypes.addressof(be), arrays[2].data_ptr(), c.ld, c.count)
    torch.cuda.synchronize()
    return st


def operands(ta, tb, m, n, k, count, broadcast=None, seed=1):
    a_shape = (m, k) if ta == "N" else (k, m)
    b_shape = (k, n) if tb == "N" else (n, k)
    lda, ldb = max(1, a_shape[0]) + 1, max(1, b_shape[0]) + 2   # padded: ld > rows
    a = Stack(count, *a_shape, lda, 0 if broadcast == "a" else lda * a_shape[1] + 3, seed)
    b = Stack(count, *b_shape, ldb, 0 if broadcast == "b" else ldb * b_shape[1] + 5, seed + 1)
    c = Stack(count, m, n, m + 2, (m + 2) * n + 1, fill=NAN)   # beta = 0: NaN must not leak
    return a, b, c


def op(x, t):
    return x.transpose(-1, -2) if t != "N" else x


def cublas_bmm(a, b):
    old = torch.backends.cuda.matmul.allow_tf32
    torch.backends.cuda.matmul.allow_tf32 = False
    try:
        return torch.bmm(a, b)
    finally:
        torch.backends.cuda.matmul.allow_tf32 = old


def check_batch(mode, ta, tb, k, a, b, c):
    """Every item of C written, each mode's accuracy class against FP64 and torch.bmm."""
    opa, opb = op(a.views(), ta), op(b.views(), tb)
    ref = opa.double() @ opb.double()
    got = c.views()
    assert torch.isfinite(got).all(), "unwritten or NaN elements in C"
    res, res_cublas = rel(got, ref), rel(cublas_bmm(opa, opb), ref)
    assert expected_class_ok(mode, res, res_cublas, k), (res, res_cublas)


@pytest.mark.parametrize("form", ["strided", "array"])
@pytest.mark.parametrize("mode", list(MODES))
@pytest.mark.parametrize("ta,tb", [("N", "N"), ("N", "T"), ("T", "N"), ("T", "T")])
@pytest.mark.parametrize("m,n,k", [(1, 1, 1), (7, 33, 127), (65, 130, 300)])
def test_batches_against_fp64_and_cublas(handle, form, mode, ta, tb, m, n, k):
    a, b, c = operands(ta, tb, m, n, k, count=3)
    assert batched(handle, form, mode, ta, tb, m, n, k, 1.0, a, b, 0.0, c) == STATUS["SUCCESS"]
    check_batch(mode, ta, tb, k, a, b, c)
    padding = torch.stack([c.buf[z * c.stride:z * c.stride + c.ld * n].view(n, c.ld)[:, m:] for z in range(3)])
    assert torch.isnan(padding).all(), "rows m..ldc-1 of C were touched"


@pytest.mark.parametrize("broadcast", ["a", "b"])
@pytest.mark.parametrize("mode", ["tf32tf32", "halfhalf", "fp32"])
def test_a_zero_stride_shares_one_operand(handle, broadcast, mode):
    m, n, k = 40, 70, 200
    a, b, c = operands("N", "T", m, n, k, count=5, broadcast=broadcast)
    assert batched(handle, "strided", mode, "N", "T", m, n, k, 1.0, a, b, 0.0, c) == 0
    opa, opb = a.views(), op(b.views(), "T")
    ref = opa.double() @ opb.double()
    res, res_cublas = rel(c.views(), ref), rel(cublas_bmm(opa, opb), ref)
    assert expected_class_ok(mode, res, res_cublas, k), (res, res_cublas)


@pytest.mark.parametrize("form", ["strided", "array"])
def test_alpha_beta_and_k_zero_per_product(handle, form):
    m, n, k = 33, 20, 90
    a, b, _ = operands("N", "N", m, n, k, count=4)
    c = Stack(4, m, n, m, m * n, seed=9)
    c0 = c.views().clone()
    assert batched(handle, form, "tf32tf32", "N", "N", m, n, k, 0.5, a, b, -2.0, c) == 0
    ref = 0.5 * (a.views().double() @ b.views().double()) - 2.0 * c0.double()
    assert rel(c.views(), ref) < 1e-6
    assert batched(handle, form, "tf32tf32", "N", "N", m, n, 0, 1.0, a, b, 3.0, c) == 0  # k = 0: C = 3 C
    assert rel(c.views(), 3.0 * ref) < 1e-6


def test_many_products_and_64_bit_entries_match_the_32_bit_ones(handle):
    m, n, k, count = 64, 64, 64, 4096
    a, b, c = operands("N", "N", m, n, k, count=count, seed=3)
    assert batched(handle, "strided", "tf32tf32", "N", "N", m, n, k, 1.0, a, b, 0.0, c) == 0
    first = c.views().clone()
    one, zero = ctypes.c_float(1.0), ctypes.c_float(0.0)
    st = lib.ecgemm_sgemm_strided_batched_64(handle, 0, 0, m, n, k, ctypes.addressof(one), a.ptr(), a.ld,
                                             a.stride, b.ptr(), b.ld, b.stride, ctypes.addressof(zero),
                                             c.ptr(), c.ld, c.stride, count)
    torch.cuda.synchronize()
    assert st == 0 and torch.equal(c.views(), first)
    ref = a.views().double() @ b.views().double()
    assert rel(first, ref) <= max(1.25 * rel(cublas_bmm(a.views(), b.views()), ref), 2 ** -22)
    # ecgemm_sgemm_64 and ecgemm_sgemm agree bit for bit on one product
    outs = [torch.full((n, m), NAN, device="cuda") for _ in range(2)]
    for entry, out in zip((lib.ecgemm_sgemm_64, lib.ecgemm_sgemm), outs):
        assert entry(handle, 0, 0, m, n, k, ctypes.addressof(one), a.ptr(17), a.ld, b.ptr(17), b.ld,
                     ctypes.addressof(zero), out.data_ptr(), m) == 0
    torch.cuda.synchronize()
    assert torch.equal(outs[0], outs[1])
    assert rel(outs[0].t(), ref[17]) <= 2 ** -20


def test_bad_batch_arguments_leave_c_untouched(handle):
    m, n, k = 8, 8, 8
    a, b, c = operands("N", "N", m, n, k, count=3)
    before = c.buf.clone()
    one = ctypes.c_float(1.0)
    p = ctypes.addressof(one)
    for args, position in [((a.stride, b.stride, -1, 3), 16), ((a.stride, b.stride, 4, 3), 16),
                           ((-1, b.stride, c.stride, 3), 14), ((a.stride, b.stride, c.stride, -2), 17)]:
        sa, sb, sc, count = args
        st = lib.ecgemm_sgemm_strided_batched(handle, 0, 0, m, n, k, p, a.ptr(), a.ld, sa, b.ptr(), b.ld, sb,
                                              p, c.ptr(), c.ld, sc, count)
        assert st == STATUS["INVALID_VALUE"] and lib.ecgemm_get_last_error_arg() == position
    torch.cuda.synchronize()
    assert torch.equal(torch.isnan(before), torch.isnan(c.buf)) and torch.equal(before.nan_to_num(), c.buf.nan_to_num())


def test_graph_capture_replays_with_new_inputs(handle):
    m, n, k, count = 96, 80, 200, 6
    a, b, c = operands("T", "N", m, n, k, count=count, seed=11)
    stream = torch.cuda.Stream()
    assert lib.ecgemm_set_stream(handle, stream.cuda_stream) == 0
    try:
        with torch.cuda.stream(stream):
            assert batched(handle, "strided", "halfhalf", "T", "N", m, n, k, 1.0, a, b, 0.0, c) == 0
            graph = torch.cuda.CUDAGraph()
            with torch.cuda.graph(graph, stream=stream):
                st = batched_no_sync(handle, "halfhalf", m, n, k, a, b, c)
            assert st == STATUS["SUCCESS"]
            for seed in (21, 22):   # new values in place, then replay
                fresh = operands("T", "N", m, n, k, count=count, seed=seed)
                a.buf.copy_(fresh[0].buf)
                b.buf.copy_(fresh[1].buf)
                graph.replay()
                stream.synchronize()
                opa = a.views().transpose(-1, -2)
                ref = opa.double() @ b.views().double()
                assert rel(c.views(), ref) <= max(1.25 * rel(cublas_bmm(opa, b.views()), ref), 2 ** -22)
    finally:
        lib.ecgemm_set_stream(handle, None)


def batched_no_sync(handle, mode, m, n, k, a, b, c):
    """The strided call without a device synchronisation (forbidden inside capture)."""
    lib.ecgemm_set_mode(handle, MODES[mode])
    one, zero = ctypes.c_float(1.0), ctypes.c_float(0.0)
    return lib.ecgemm_sgemm_strided_batched(handle, 1, 0, m, n, k, ctypes.addressof(one), a.ptr(), a.ld,
                                            a.stride, b.ptr(), b.ld, b.stride, ctypes.addressof(zero),
                                            c.ptr(), c.ld, c.stride, c.count)


def test_capture_of_a_call_that_needs_scratch_takes_graph_memory():
    """A fresh handle, idle memory given back: the captured call's scratch becomes the
    graph's own (docs/memory.md), so the capture succeeds and every replay is right."""
    h = ctypes.c_void_p()
    assert lib.ecgemm_create(ctypes.byref(h)) == 0
    try:
        assert lib.ecgemm_release_workspace(h) == 0
        m, n, k = 64, 64, 1 << 16   # split-K partials
        size = ctypes.c_size_t()
        assert lib.ecgemm_get_workspace_size_64(h, 1, 0, m, n, k, k, k, m, 1, 0,
                                                ctypes.byref(size)) == 0 and size.value > 0
        a = torch.rand(m, k, device="cuda")   # column-major k x m (ld k): op(A) = A^T is this m x k
        b = torch.rand(n, k, device="cuda")   # column-major k x n (ld k)
        c = torch.full((n, m), NAN, device="cuda")
        stream = torch.cuda.Stream()
        lib.ecgemm_set_stream(h, stream.cuda_stream)
        one, zero = ctypes.c_float(1.0), ctypes.c_float(0.0)
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.stream(stream), torch.cuda.graph(graph, stream=stream):
            st = lib.ecgemm_sgemm(h, 1, 0, m, n, k, ctypes.addressof(one), a.data_ptr(), k, b.data_ptr(), k,
                                  ctypes.addressof(zero), c.data_ptr(), m)
        assert st == STATUS["SUCCESS"]
        for _ in range(2):
            a.copy_(torch.rand_like(a))
            c.fill_(NAN)
            graph.replay()
            stream.synchronize()
            assert rel(c.t(), a.double() @ b.double().t()) < 1e-6
    finally:
        lib.ecgemm_destroy(h)
