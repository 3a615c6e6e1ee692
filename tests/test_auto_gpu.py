"""ECGEMM_MODE_AUTO on a GPU, through the C ABI: the scales and route the device picks
match the numerics lab's model (bit for bit against halfhalf on the same scaled operands,
or tf32tf32 on fall-back data), and the residual is at cuBLAS SGEMM's level on the
paper's four exponent types, urand(-1, 1) and positive-only data."""
import numpy as np
import pytest

from _capi import MODES, OP, STATUS
from test_c_abi_gpu import U, ColMajor, cublas_sgemm, handle, lib, op, rel, sgemm, torch  # noqa: F401

from ecgemm import numerics

pytestmark = pytest.mark.gpu
NAN = float("nan")
EXP_TYPES = {1: ((-15, 14), (-15, 14)), 2: ((-15, 14), (-100, -35)), 3: ((-35, -15), (-35, -15)),
             4: ((-100, -35), (-100, -35))}


def operands(ta, tb, a_host, b_host, pad=0, offset=0):
    """Column-major device copies of op(A) = a_host (m x k) and op(B) = b_host (k x n),
    stored transposed where ta / tb say so."""
    a_stored = a_host.T if ta == "T" else a_host
    b_stored = b_host.T if tb == "T" else b_host
    a = ColMajor(torch.from_numpy(np.ascontiguousarray(a_stored)).cuda(), a_stored.shape[0] + pad, offset)
    b = ColMajor(torch.from_numpy(np.ascontiguousarray(b_stored)).cuda(), b_stored.shape[0] + pad, offset)
    return a, b


def run(h, mode, ta, tb, a, b, m, n, k, alpha=1.0, beta=0.0, c=None):
    c = c or ColMajor(torch.full((m, n), NAN, device="cuda"), m)
    assert sgemm(h, mode, ta, tb, m, n, k, alpha, a, b, beta, c) == STATUS["SUCCESS"]
    return c


def as_int(x):
    return x.contiguous().view(torch.int32)


def auto_and_twin(h, monkeypatch, exp_type, ta, tb, m, k, n):
    """AUTO on exponent-type data, and its twin: the route the model picks (halfhalf, or
    tf32tf32 on fall-back data) run on the model's scaled operands and scaled back."""
    # The plane route, where AUTO scales, for AUTO and for its twin (dispatch sends a
    # halfhalf product this small to the fused mma.sync family).
    monkeypatch.setenv("ECGEMM_FAMILY", "planes")
    a_host, b_host = (numerics.exp_rand(s, *r, rng) for s, r, rng in
                      zip(((m, k), (k, n)), EXP_TYPES[exp_type], (exp_type, exp_type + 10)))
    choice = numerics.auto_choice(a_host, b_host)
    assert choice.fallback == (exp_type in (2, 4))
    a, b = operands(ta, tb, a_host, b_host, pad=exp_type % 2, offset=exp_type % 2)
    got = run(h, "auto", ta, tb, a, b, m, n, k).view()
    a_s, b_s = numerics.auto.scaled_operands(a_host, b_host, choice)
    sa, sb = operands(ta, tb, a_s, b_s)
    scaled = run(h, choice.mode, ta, tb, sa, sb, m, n, k).view().cpu().numpy()
    twin = torch.from_numpy(numerics.auto.unscale(scaled, choice)).cuda()
    return got, twin, choice, a_host, b_host


@pytest.mark.parametrize("exp_type", [1, 2, 3, 4])
@pytest.mark.parametrize("ta,tb", [("N", "N"), ("T", "N"), ("N", "T"), ("T", "T")])
def test_exponent_types_route_bits_and_residual(handle, monkeypatch, exp_type, ta, tb):
    m, k, n = 256, 1024, 256
    got, twin, choice, a_host, b_host = auto_and_twin(handle, monkeypatch, exp_type, ta, tb, m, k, n)
    assert torch.equal(as_int(got), as_int(twin))  # the device's choice is the model's
    ref = torch.from_numpy(a_host.astype(np.float64) @ b_host.astype(np.float64)).cuda()
    opa = torch.from_numpy(a_host).cuda()
    opb = torch.from_numpy(b_host).cuda()
    res, res_cublas = rel(got, ref), rel(cublas_sgemm(opa, opb), ref)
    # Scaled data: halfhalf's accuracy, at or below SGEMM's. Fall-back data: tf32tf32's,
    # whose per-product error (~8u) puts it within a quarter of SGEMM's at this short k.
    assert res <= (1.25 * res_cublas if choice.fallback else res_cublas), (res, res_cublas)


@pytest.mark.parametrize("exp_type", [1, 4])
def test_more_tiles_than_ctas_same_bits_as_the_plain_route(handle, monkeypatch, exp_type):
    """AUTO's persistent CTAs (sm_90) take several tiles each (16 x 17 tiles here, more
    than an H100's or H200's SMs): the same bits as the plain kernels' one tile a CTA."""
    got, twin, _, _, _ = auto_and_twin(handle, monkeypatch, exp_type, "N", "T", 2048, 384, 2176)
    assert torch.isfinite(got).all(), "unwritten or NaN elements in C"
    assert torch.equal(as_int(got), as_int(twin))


@pytest.mark.parametrize("data", ["urand", "positive"])
@pytest.mark.parametrize("m,n,k", [(256, 256, 1024), (1000, 700, 3000), (256, 384, 65536),
                                   (2048, 2048, 512)])
def test_uniform_data_at_least_as_accurate_as_cublas(handle, data, m, n, k):
    rng = np.random.default_rng(m + k)
    a_host = rng.uniform(-1, 1, (m, k)).astype(np.float32)
    b_host = rng.uniform(-1, 1, (k, n)).astype(np.float32)
    if data == "positive":
        a_host, b_host = np.abs(a_host), np.abs(b_host)
    a, b = operands("N", "N", a_host, b_host)
    got = run(handle, "auto", "N", "N", a, b, m, n, k).view()
    assert torch.isfinite(got).all(), "unwritten or NaN elements in C"
    ref = torch.from_numpy(a_host.astype(np.float64) @ b_host.astype(np.float64)).cuda()
    res_cublas = rel(cublas_sgemm(torch.from_numpy(a_host).cuda(), torch.from_numpy(b_host).cuda()), ref)
    assert rel(got, ref) <= max(res_cublas, 4 * U), (rel(got, ref), res_cublas)


def test_rows_and_columns_far_outside_fp16s_range(handle):
    """Rows near 2^70 and near 2^-70, columns near 2^-35 (FP16 holds none of them):
    scaled exactly and back exactly, the tiny rows as accurate as the large ones."""
    m, k, n = 300, 500, 260
    rng = np.random.default_rng(3)
    a_host = numerics.exp_rand((m, k), 60, 75, rng)
    a_host[::2] = numerics.exp_rand((m // 2, k), -80, -65, rng)
    b_host = numerics.exp_rand((k, n), -40, -30, rng)
    assert not numerics.auto_choice(a_host, b_host).fallback
    a, b = operands("T", "N", a_host, b_host, pad=1, offset=1)
    got = run(handle, "auto", "T", "N", a, b, m, n, k).view()
    ref = torch.from_numpy(a_host.astype(np.float64) @ b_host.astype(np.float64)).cuda()
    theirs = cublas_sgemm(torch.from_numpy(a_host).cuda(), torch.from_numpy(b_host).cuda())
    for rows in (slice(0, None, 2), slice(1, None, 2)):
        assert rel(got[rows], ref[rows]) <= max(1.25 * rel(theirs[rows], ref[rows]), 4 * U)


def test_rows_too_wide_for_fp32_once_scaled_run_unscaled(handle, monkeypatch):
    """Rows and columns of about 166 binades (2^100 ... 2^-66): scaled to the top, their
    smallest elements would leave FP32, so the device, like the model, takes tf32tf32 on the
    operands as they are: the twin's bits, and [2^100, 2^-66] . [2^-100, 2^66] = 2 exactly."""
    monkeypatch.setenv("ECGEMM_FAMILY", "planes")  # the route where AUTO scales
    m, k, n = 192, 384, 160
    rng = np.random.default_rng(11)
    a_host = numerics.exp_rand((m, k), -4, 4, rng)
    b_host = numerics.exp_rand((k, n), -4, 4, rng)
    a_host[:, 0], a_host[:, 1] = 2.0 ** 100, 2.0 ** -66
    b_host[0, :], b_host[1, :] = 2.0 ** -100, 2.0 ** 66
    choice = numerics.auto_choice(a_host, b_host)
    assert choice.fallback and not choice.scaled
    a, b = operands("N", "T", a_host, b_host, pad=1, offset=1)
    got = run(handle, "auto", "N", "T", a, b, m, n, k).view()
    twin = run(handle, "tf32tf32", "N", "T", a, b, m, n, k).view()
    assert torch.equal(as_int(got), as_int(twin))
    ref = torch.from_numpy(a_host.astype(np.float64) @ b_host.astype(np.float64)).cuda()
    theirs = cublas_sgemm(torch.from_numpy(a_host).cuda(), torch.from_numpy(b_host).cuda())
    assert rel(got, ref) <= max(1.25 * rel(theirs, ref), 4 * U)
    two_a = np.tile(np.array([[2.0 ** 100, 2.0 ** -66]], dtype=np.float32), (64, 1))
    two_b = np.tile(np.array([[2.0 ** -100], [2.0 ** 66]], dtype=np.float32), (1, 64))
    a, b = operands("N", "N", two_a, two_b)
    assert torch.all(run(handle, "auto", "N", "N", a, b, 64, 64, 2).view() == 2.0)


def test_final_overflow_and_underflow_as_sgemm_would_produce_them(handle):
    m, k, n = 256, 64, 256
    a_host = np.full((m, k), 2.0 ** 100, dtype=np.float32)
    b_host = np.full((k, n), 2.0 ** 30, dtype=np.float32)  # each product 2^130: C overflows
    b_host[:, 1::2] = 2.0 ** -60                             # these columns: 2^46 * k, finite
    a, b = operands("N", "N", a_host, b_host)
    got = run(handle, "auto", "N", "N", a, b, m, n, k).view()
    ref = cublas_sgemm(torch.from_numpy(a_host).cuda(), torch.from_numpy(b_host).cuda())
    assert torch.equal(torch.isinf(got), torch.isinf(ref))
    assert torch.equal(got[:, 1::2], ref[:, 1::2])  # exact: powers of two summed


def test_nan_and_inf_fall_back_and_land_where_sgemm_puts_them(handle):
    m, k, n = 256, 300, 260
    rng = np.random.default_rng(5)
    a_host = rng.uniform(0, 1, (m, k)).astype(np.float32)
    b_host = rng.uniform(0.01, 1, (k, n)).astype(np.float32)  # positive: Inf never meets -Inf
    a_host[2, 7], a_host[5, 3], b_host[4, 11] = np.nan, np.inf, np.nan
    assert numerics.auto_choice(a_host, b_host).fallback
    a, b = operands("N", "N", a_host, b_host)
    got = run(handle, "auto", "N", "N", a, b, m, n, k).view()
    ref = cublas_sgemm(torch.from_numpy(a_host).cuda(), torch.from_numpy(b_host).cuda())
    assert torch.equal(torch.isnan(got), torch.isnan(ref))
    assert torch.equal(torch.isinf(got), torch.isinf(ref))


def test_alpha_beta_device_scalars_and_route_flip_between_calls(handle):
    """One handle, data that scales then data that falls back, then scales again: the
    device's choice is per call (no state left behind), with alpha/beta on the device."""
    m, k, n = 320, 200, 300
    rng = np.random.default_rng(9)
    c0 = torch.rand((m, n), device="cuda") - 0.5
    scalars = torch.tensor([-1.5, 0.75], device="cuda")
    lib.ecgemm_set_mode(handle, MODES["auto"])
    for exp_type in (3, 4, 1):
        a_host = numerics.exp_rand((m, k), *EXP_TYPES[exp_type][0], rng)
        b_host = numerics.exp_rand((k, n), *EXP_TYPES[exp_type][1], rng)
        a, b = operands("N", "T", a_host, b_host)
        c = ColMajor(c0.clone(), m + 3, 2)
        assert lib.ecgemm_set_pointer_mode(handle, 1) == 0
        try:
            st = lib.ecgemm_sgemm(handle, OP["N"], OP["T"], m, n, k, scalars.data_ptr(), a.ptr, a.ld,
                                  b.ptr, b.ld, scalars.data_ptr() + 4, c.ptr, c.ld)
            torch.cuda.synchronize()
        finally:
            lib.ecgemm_set_pointer_mode(handle, 0)
        assert st == 0
        ab = torch.from_numpy(a_host.astype(np.float64) @ b_host.astype(np.float64)).cuda()
        ref = -1.5 * ab + 0.75 * c0.double()
        assert rel(c.view(), ref) < 1e-6, exp_type
        pad_rows = c.buf[2:2 + c.ld * n].view(n, c.ld)[:, m:]
        assert torch.isnan(pad_rows).all()


def test_skinny_calls_run_tf32tf32s_products_where_the_data_allow(handle, monkeypatch):
    """Off the plane route AUTO runs tf32tf32's products: on fused_mma the same bits, where no block
    of C sees a run too wide for them (numerics.wide_blocks); rows scaled across 2^-100..2^80 are
    not wide (each row's own spread is urand's). Data wide within rows take FP32 products there."""
    monkeypatch.setenv("ECGEMM_FAMILY", "fused_mma")
    rng = np.random.default_rng(2)
    for m, k, n in ((64, 8192, 4096), (1, 3000, 700), (100, 300, 60)):
        scales = np.ldexp(1.0, rng.integers(-100, 81, (m, 1))).astype(np.float32)
        a_host = (rng.uniform(-1, 1, (m, k)) * scales).astype(np.float32)
        b_host = rng.uniform(-1, 1, (k, n)).astype(np.float32)
        assert not numerics.wide_blocks(a_host, b_host).any()
        a, b = operands("N", "N", a_host, b_host)
        got = run(handle, "auto", "N", "N", a, b, m, n, k).view()
        twin = run(handle, "tf32tf32", "N", "N", a, b, m, n, k).view()
        assert torch.equal(as_int(got), as_int(twin)), (m, k, n)
        wide = numerics.exp_rand((m, k), -100, 100 - 20, rng)  # no FP16 or TF32 pair could hold a row
        assert numerics.wide_blocks(wide, b_host).all()
        a, _ = operands("N", "N", wide, b_host)
        ref = torch.from_numpy(wide.astype(np.float64) @ b_host.astype(np.float64)).cuda()
        got = rel(run(handle, "auto", "N", "N", a, b, m, n, k).view(), ref)
        tf32 = rel(run(handle, "tf32tf32", "N", "N", a, b, m, n, k).view(), ref)
        assert got <= tf32, (m, k, n, got, tf32)
