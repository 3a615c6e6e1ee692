"""The simt family's stream tile (k <= 32, SimtTile::kStream in libecgemm/kernels/simt.hpp;
ECGEMM_FAMILY=simt): every transpose, ragged m and n, odd leading dimensions, a C that
columns off a 16-byte boundary, alpha and beta with BLAS's zero rules, both batch forms,
and aligned and shifted columns bit for bit.

Accuracy is checked element by element against the worst-case bound of what the kernel
computes: each output is one FMA chain over k (k roundings), then alpha * sum and
beta * C added (at most 3 more). So |C - C_exact| <= gamma_{k+3} * (|alpha| |A||B| +
|beta| |C0|) with gamma_j = j u / (1 - j u), u = 2^-24 (Higham, Accuracy and Stability of
Numerical Algorithms, 3.1); (k + 4) u bounds gamma_{k+3} and the FP64 reference's own
error. A wrong, unwritten (NaN-poisoned) or doubly-scaled element fails it; rounding
cannot.
"""
import ctypes
import re

import pytest

from _capi import OP
from test_c_abi_gpu import MODES, STATUS, ColMajor, handle, lib, torch  # noqa: F401 (handle: fixture)
from test_c_batched_gpu import Stack
from test_c_batched_gpu import batched as batched_call

pytestmark = pytest.mark.gpu
NAN = float("nan")
U = 2.0 ** -24
STREAM_MAX_K = 32  # kStreamMaxK
LAYOUTS = [("N", "N"), ("N", "T"), ("T", "N"), ("T", "T")]
KS = [1, 2, 3, 7, 16, 31, 32]
# (m, n, padded): below, at and past the 128 x 64 tile's edges, 4-row quads cut short;
# packed or padded (odd_pad). Packed with m odd still leaves some columns unaligned.
SHAPES = [(1, 1, False), (5, 129, True), (127, 300, False), (129, 5, True), (300, 65, True),
          (1000, 63, False)]


@pytest.fixture(autouse=True)
def simt_route(monkeypatch):
    monkeypatch.setenv("ECGEMM_FAMILY", "simt")


def odd_pad(rows):
    """A pad of 1 to 3 that leaves rows + pad not a multiple of 4."""
    return next(p for p in (1, 3, 2) if (rows + p) % 4)


def operands(ta, tb, m, n, k, padded, seed, fill=None):
    """A and B in the caller's layout: packed, or ld = rows + 1 / + 3 and one float into
    a NaN-poisoned buffer."""
    g = torch.Generator(device="cuda").manual_seed(seed)
    a_shape = (m, k) if ta == "N" else (k, m)
    b_shape = (k, n) if tb == "N" else (n, k)
    values = [torch.rand(s, device="cuda", generator=g) * 2 - 1 if fill is None
              else torch.full(s, fill, device="cuda") for s in (a_shape, b_shape)]
    a = ColMajor(values[0], a_shape[0] + (1 if padded else 0), 1 if padded else 0)
    b = ColMajor(values[1], b_shape[0] + (3 if padded else 0), 1 if padded else 0)
    return a, b


def output(m, n, ld, offset, beta, seed):
    """C: NaN where beta = 0 (a value it reads would show), random otherwise."""
    if beta == 0:
        values = torch.full((m, n), NAN, device="cuda")
    else:
        g = torch.Generator(device="cuda").manual_seed(seed + 1000)
        values = torch.rand((m, n), device="cuda", generator=g) * 2 - 1
    return ColMajor(values, ld, offset)


def call(handle, ta, tb, m, n, k, alpha, a, b, beta, c, device_scalars=False, mode="fp32"):
    """ecgemm_sgemm_64; alpha and beta from device memory with `device_scalars` (the
    only way alpha = 0 reaches the kernel: on the host it takes the C = beta * C path)."""
    assert lib.ecgemm_set_mode(handle, MODES[mode]) == 0
    if device_scalars:
        scalars = torch.tensor([alpha, beta], device="cuda")
        al, be = scalars.data_ptr(), scalars.data_ptr() + 4
        assert lib.ecgemm_set_pointer_mode(handle, 1) == 0
    else:
        host = (ctypes.c_float(alpha), ctypes.c_float(beta))
        al, be = ctypes.addressof(host[0]), ctypes.addressof(host[1])
    try:
        st = lib.ecgemm_sgemm_64(handle, OP[ta], OP[tb], m, n, k, al, a.ptr, a.ld, b.ptr, b.ld,
                                 be, c.ptr, c.ld)
        torch.cuda.synchronize()
    finally:
        lib.ecgemm_set_pointer_mode(handle, 0)
    return st


def op(x, t):
    return x.transpose(-1, -2) if t != "N" else x


def check_bound(got, opa, opb, k, alpha, beta, c0):
    """got (FP32) within gamma_{k+3} of alpha * opa @ opb + beta * c0, element by element.
    A zero alpha or beta drops its term (BLAS: the NaN there takes no part)."""
    ref = torch.zeros(got.shape, dtype=torch.float64, device="cuda")
    mag = torch.zeros_like(ref)
    if alpha != 0:
        ref += alpha * (opa.double() @ opb.double())
        mag += abs(alpha) * (opa.double().abs() @ opb.double().abs())
    if beta != 0:
        ref += beta * c0.double()
        mag += abs(beta) * c0.double().abs()
    err = (got.double() - ref).abs()
    bound = (k + 4) * U * mag
    bad = ~(err <= bound)  # NaN fails too
    assert not bad.any(), (f"{int(bad.sum())} of {bad.numel()} outside the bound, first at "
                           f"{bad.nonzero()[0].tolist()}: got {got[bad][0].item()}, "
                           f"exact {ref[bad][0].item()}")


def assert_only_c_written(c, m, n):
    """Every float of C's buffer outside its m x n (padding rows, before and after) is
    still the NaN it was filled with."""
    outside = torch.ones_like(c.buf, dtype=torch.bool)
    outside[c.offset:].as_strided((m, n), (1, c.ld)).fill_(False)
    assert torch.isnan(c.buf[outside]).all(), "C was written outside its m x n"


def run_case(handle, ta, tb, m, n, k, alpha, beta, padded, seed, device_scalars=False):
    a, b = operands(ta, tb, m, n, k, padded, seed, fill=NAN if alpha == 0 else None)
    ldc, offset = (m + odd_pad(m), 1) if padded else (m, 0)
    c = output(m, n, ldc, offset, beta, seed)
    c0 = c.view().clone()
    assert call(handle, ta, tb, m, n, k, alpha, a, b, beta, c, device_scalars) == STATUS["SUCCESS"]
    check_bound(c.view(), op(a.view(), ta), op(b.view(), tb), k, alpha, beta, c0)
    assert_only_c_written(c, m, n)
    return c


@pytest.mark.parametrize("m,n,padded", SHAPES)
@pytest.mark.parametrize("ta,tb", LAYOUTS)
@pytest.mark.parametrize("k", KS)
def test_products(handle, k, ta, tb, m, n, padded):
    """beta = 0 over a NaN C: every element written, within the bound, nothing else touched.
    Padded: ld = rows + 1 (A), + 3 (B), ldc % 4 != 0 and every base one float off."""
    run_case(handle, ta, tb, m, n, k, 1.0, 0.0, padded, seed=m * 7 + n * 3 + k)


# (alpha, beta, scalars on the device): alpha = 0 reaches the kernel only from the device.
SCALARS = [(1.0, 0.0, False), (0.5, 0.0, False), (1.0, 1.0, False), (0.5, -0.75, False),
           (1.0, -0.75, True), (0.5, 1.0, True), (0.0, 0.0, True), (0.0, 1.0, True),
           (0.0, -0.75, True)]


@pytest.mark.parametrize("alpha,beta,device_scalars", SCALARS,
                         ids=[f"a{a}-b{b}-{'dev' if d else 'host'}" for a, b, d in SCALARS])
@pytest.mark.parametrize("ta,tb", LAYOUTS)
@pytest.mark.parametrize("m,n,k,padded", [(129, 300, 7, False), (1000, 65, 32, True),
                                          (5, 5, 1, True)])
def test_alpha_beta(handle, alpha, beta, device_scalars, ta, tb, m, n, k, padded):
    """BLAS's rules: alpha = 0 uses no A or B (NaN there must not show), beta = 0 reads no
    C (NaN there must not show); otherwise alpha * A B + beta * C within the bound."""
    run_case(handle, ta, tb, m, n, k, alpha, beta, padded, seed=m + n + k, device_scalars=device_scalars)


# (ldc mod 4, C's offset in floats past a 16-byte boundary): every column 16-byte
# aligned; then columns that start 1, 2 or 3 floats past a boundary, all of one offset
# (ldc = 0 mod 4) or cycling through the four (ldc odd) or two of them (ldc = 2 mod 4).
C_PLACES = [(0, 0), (0, 1), (0, 2), (0, 3), (1, 0), (3, 2), (2, 1)]


@pytest.mark.parametrize("beta", [0.0, -0.75])
@pytest.mark.parametrize("ta,tb", [("N", "N"), ("T", "T"), ("N", "T")])
@pytest.mark.parametrize("k", [1, 4, 7, 18, 19, 32])
@pytest.mark.parametrize("m", [1, 3, 6, 130, 1000, 1001])
def test_aligned_and_shifted_columns_agree_bit_for_bit(handle, m, k, ta, tb, beta):
    """The same A, B and C stored where every column of C is 16-byte aligned (float4 loads and
    stores of each lane's own four rows) and where columns start 1 to 3 floats past a
    boundary (k <= 4, kShiftedMaxK: quads shifted between lanes, lane 0's first rows and lane
    31's last alone; up to kLanesMaxK = 18: rows lane + 32i, a warp's accesses contiguous;
    beyond: one access a row): every element within the bound, nothing outside C written,
    and the same bits. m: inside one quad, one tile and a few rows past it, ragged."""
    n = 129
    a, b = operands(ta, tb, m, n, k, False, seed=m + k)
    results = []
    for residue, offset in C_PLACES:
        ldc = m + (residue - m) % 4
        c = output(m, n, ldc, offset, beta, seed=k)
        c0 = c.view().clone()
        assert call(handle, ta, tb, m, n, k, 0.5, a, b, beta, c) == STATUS["SUCCESS"]
        check_bound(c.view(), op(a.view(), ta), op(b.view(), tb), k, 0.5, beta, c0)
        assert_only_c_written(c, m, n)
        results.append(c.view().contiguous().view(torch.int32))
    for other in results[1:]:
        assert torch.equal(results[0], other)


def batched(handle, form, ta, tb, m, n, k, alpha, a, b, beta, c):
    """test_c_batched_gpu's batched call in FP32 mode (the stream tile serves every mode alike)."""
    return batched_call(handle, form, "fp32", ta, tb, m, n, k, alpha, a, b, beta, c)


def run_batch(handle, form, ta, tb, m, n, k, count, seed, mode="fp32", alpha=1.0, beta=0.0,
              aligned=False):
    """`count` products in one batched call (the tiles that walk batches: dot, GEMV),
    each within check_bound, nothing written outside them. Padded leading dimensions;
    strides that keep every product 16-byte aligned (`aligned`), or not."""
    a_shape = (m, k) if ta == "N" else (k, m)
    b_shape = (k, n) if tb == "N" else (n, k)
    pad = 0 if aligned else 1
    lda, ldb, ldc = a_shape[0] + pad, b_shape[0] + 2 * pad, m + 3 * pad

    def stride(ld, cols):
        return (ld * cols + 3) // 4 * 4 + pad

    a = Stack(count, *a_shape, lda, stride(lda, a_shape[1]), seed=seed)
    b = Stack(count, *b_shape, ldb, stride(ldb, b_shape[1]), seed=seed + 1)
    c = Stack(count, m, n, ldc, stride(ldc, n), seed=seed + 2, fill=NAN if beta == 0 else None)
    c0 = c.views().clone()
    st = batched_call(handle, form, mode, ta, tb, m, n, k, alpha, a, b, beta, c)
    assert st == STATUS["SUCCESS"]
    check_bound(c.views(), op(a.views(), ta), op(b.views(), tb), k, alpha, beta, c0)
    inside = torch.zeros_like(c.buf, dtype=torch.bool)
    for z in range(count):
        inside[z * c.stride:].as_strided((m, n), (1, ldc)).fill_(True)
    assert torch.isnan(c.buf[~inside]).all(), "C was written outside its products"


@pytest.mark.parametrize("packed", [True, False], ids=["packed", "padded"])
@pytest.mark.parametrize("beta", [0.0, -0.75])
@pytest.mark.parametrize("form", ["strided", "array"])
@pytest.mark.parametrize("ta,tb", LAYOUTS)
@pytest.mark.parametrize("k", [1, 32])
def test_batches(handle, k, ta, tb, form, beta, packed):
    """Three products, each its own A, B and C (grid.y walks them), within the bound;
    packed (16-byte aligned C columns) or padded with odd strides (scalar stores)."""
    m, n = 260, 70
    a, b, c = stacks(ta, tb, m, n, k, 3, packed, c_fill=NAN if beta == 0 else None)
    c0 = c.views().clone()
    assert batched(handle, form, ta, tb, m, n, k, 1.0, a, b, beta, c) == STATUS["SUCCESS"]
    check_bound(c.views(), op(a.views(), ta), op(b.views(), tb), k, 1.0, beta, c0)
    assert_only_products_written(c, m, n)


def stacks(ta, tb, m, n, k, count, packed, c_fill=None):
    """A, B and C of `count` products; packed, or padded (ld and every product's offset odd, so
    that no column starts on a 16-byte boundary) with NaN in the padding."""
    a_shape = (m, k) if ta == "N" else (k, m)
    b_shape = (k, n) if tb == "N" else (n, k)
    pad = 0 if packed else 1
    lda, ldb, ldc = a_shape[0] + pad, b_shape[0] + 2 * pad, m + 3 * pad
    a = Stack(count, *a_shape, lda, lda * a_shape[1] + 3 * pad, seed=k)
    b = Stack(count, *b_shape, ldb, ldb * b_shape[1] + 5 * pad, seed=k + 1)
    c = Stack(count, m, n, ldc, ldc * n + pad, seed=k + 2, fill=c_fill)
    return a, b, c


def assert_only_products_written(c, m, n):
    """Every element of C's buffer outside its m x n products still holds its NaN."""
    inside = torch.zeros_like(c.buf, dtype=torch.bool)
    for z in range(c.count):
        inside[z * c.stride:].as_strided((m, n), (1, c.ld)).fill_(True)
    assert torch.isnan(c.buf[~inside]).all(), "C was written outside its products"


def plan(handle, mode, ta, tb, m, n, k, batch=1):
    text = ctypes.create_string_buffer(256)
    assert lib.ecgemm_set_mode(handle, MODES[mode]) == 0
    lda = m if ta == "N" else k
    ldb = k if tb == "N" else n
    assert lib.ecgemm_internal_plan_string(handle, OP[ta], OP[tb], m, n, k, lda, ldb, m, batch, 0,
                                           text, 256) == 0
    return text.value.decode()


@pytest.mark.parametrize("mode", ["fp32", "tf32tf32", "halfhalf"])
@pytest.mark.parametrize("m,n,batch", [(1, 1, 1), (5, 1000, 1), (4096, 4096, 1), (64, 64, 100)])
def test_plan_takes_the_stream_tile_up_to_k_32(handle, mode, m, n, batch):
    """Pinned to simt, k <= 32 plans the stream tile (unsplit) whatever the shape and mode
    (one- or two-level), or the strip tile where the cost model prices it lower
    (test_simt_strips_gpu.py); k = 33 plans another tile."""
    tiles = "(stream|strips)"
    for k in (1, 17, STREAM_MAX_K):
        text = plan(handle, mode, "N", "T", m, n, k, batch)
        assert re.search(rf"family=simt .*tile={tiles} splits=1 ", text), text
    text = plan(handle, mode, "N", "T", m, n, STREAM_MAX_K + 1, batch)
    assert "family=simt" in text and "tile=stream" not in text and "tile=strips" not in text, text


def test_fp32_mode_takes_the_stream_tile_unpinned(handle, monkeypatch):
    """ECGEMM_MODE_FP32 runs simt on every shape GEMV does not take: small k is the stream tile."""
    monkeypatch.delenv("ECGEMM_FAMILY", raising=False)
    text = plan(handle, "fp32", "N", "N", 8192, 8192, 16)
    assert re.search(r"family=simt .*tile=stream", text), text
