"""fused_mma's FP32 form (FusedMmaPlan::fp32, ECGEMM_FAMILY=fused_mma/fp32): every stage in
FP32 on the 32-wide tile, for the corrected modes; it runs up to one stage (k <= 32), where the
planner offers it, their products being less accurate than SGEMM's there. Every
transpose, ragged and single rows and columns, odd leading dimensions and bases, alpha and
beta with BLAS's zero rules (scalars on the host and on the device), both batch forms, each
plan checked to be the form.

Below k = 8 each output is one FMA chain over k in increasing order, as on simt's stream
and strip tiles, and equals the simt family's value on the same operands; from k = 8 it is
chains of 4 k-steps added in k order (fused_mma.cu: kFp32GroupMinK). Where the plan says
"sums=fp64" (fused_mma.hpp: fp64_sums_hide) each output is its sum in FP64 rounded once: the FP32
value nearest the exact sum, at or below the simt chain's error on every output. Every output
within test_simt_stream_gpu's bound of a k-term FP32 sum, and nothing outside C written.
"""
import re

import pytest

from test_c_abi_gpu import STATUS, handle, torch  # noqa: F401 (handle: fixture)
from test_gemv_gpu import assert_rounds_once
from test_simt_stream_gpu import (LAYOUTS, SCALARS, assert_only_c_written, call, check_bound,
                                  odd_pad, op, operands, output, plan, run_batch)

pytestmark = pytest.mark.gpu
CORRECTED = ("tf32tf32", "halfhalf", "auto")
MAX_K = 32  # libecgemm/planner.cpp: kFp32RouteMaxK (the form runs one stage, k <= 32)
GROUP_MIN_K = 8  # fused_mma.cu: kFp32GroupMinK
FP64_SUMS_CTAS_PER_SM = 2  # fused_mma.cu: fp64_sums_hide's kFp64SumsCtasPerSm
KS = [1, 2, 7, 9, 16, 24, MAX_K]
# (m, n, padded): one output; ragged 32-wide tiles on either side; several tiles.
SHAPES = [(1, 1, False), (5, 129, True), (33, 31, False), (129, 5, True), (300, 65, True),
          (1000, 63, False)]


@pytest.fixture(autouse=True)
def fp32_form(monkeypatch):
    monkeypatch.setenv("ECGEMM_FAMILY", "fused_mma/fp32")


def takes_fp32_form(handle, mode, ta, tb, m, n, k, batch=1):
    """Whether the form sums in FP64 (asserting the plan is the form)."""
    text = plan(handle, mode, ta, tb, m, n, k, batch=batch)
    assert re.match(r"family=fused_mma method=fp32 tile=32x32 splits=1[ \w=]* workspace=", text), text
    return "sums=fp64" in text.split()


def product(handle, mode, ta, tb, m, n, k, a, b, alpha, beta, padded, seed, device_scalars=False):
    """C = alpha op(A) op(B) + beta C over a NaN-poisoned (beta = 0) or random C; checked
    against the bound and for writes outside C; returns C's values."""
    ldc, offset = (m + odd_pad(m), 1) if padded else (m, 0)
    c = output(m, n, ldc, offset, beta, seed)
    c0 = c.view().clone()
    st = call(handle, ta, tb, m, n, k, alpha, a, b, beta, c, device_scalars, mode=mode)
    assert st == STATUS["SUCCESS"]
    check_bound(c.view(), op(a.view(), ta), op(b.view(), tb), k, alpha, beta, c0)
    assert_only_c_written(c, m, n)
    return c.view().clone()


@pytest.mark.parametrize("mode", CORRECTED)
@pytest.mark.parametrize("m,n,padded", SHAPES)
@pytest.mark.parametrize("ta,tb", LAYOUTS)
@pytest.mark.parametrize("k", KS)
def test_products(handle, monkeypatch, mode, k, ta, tb, m, n, padded):
    fp64 = takes_fp32_form(handle, mode, ta, tb, m, n, k)
    seed = m * 7 + n * 3 + k
    a, b = operands(ta, tb, m, n, k, padded, seed)
    ours = product(handle, mode, ta, tb, m, n, k, a, b, 1.0, 0.0, padded, seed)
    opa, opb = op(a.view(), ta).double(), op(b.view(), tb).double()
    ref, mag = opa @ opb, opa.abs() @ opb.abs()
    if fp64:
        assert_rounds_once(ours, ref, mag, k)
    if k >= GROUP_MIN_K:
        return
    monkeypatch.setenv("ECGEMM_FAMILY", "simt")
    text = plan(handle, mode, ta, tb, m, n, k)
    assert re.search(r"family=simt .*tile=(stream|strips) ", text), text
    simt = product(handle, mode, ta, tb, m, n, k, a, b, 1.0, 0.0, padded, seed)
    if not fp64:
        assert torch.equal(ours, simt)  # the same chains (a zero's sign aside, which == ignores)
        return
    slack = 4 * k * 2.0 ** -53 * mag  # FP64's own rounding
    assert ((ours.double() - ref).abs() <= (simt.double() - ref).abs() + slack).all()


@pytest.mark.parametrize("mode", CORRECTED)
@pytest.mark.parametrize("ta,tb", LAYOUTS)
@pytest.mark.parametrize("m,n,k", [(2000, 1500, 16), (2000, 1500, 17), (4000, 300, 32), (591, 259, 32),
                                   (591, 259, 5), (700, 600, 9)])
def test_fp64_sums_where_they_hide(handle, mode, ta, tb, m, n, k):
    """Grids of at most two CTAs an SM take the FP64 sums (each output rounded once) at any k, larger
    grids, one wave too, the FP32 chains at any k: both within the bound, on positive data too."""
    fp64 = takes_fp32_form(handle, mode, ta, tb, m, n, k)
    limit = torch.cuda.get_device_properties(0).multi_processor_count * FP64_SUMS_CTAS_PER_SM
    assert fp64 == (-(-m // 32) * -(-n // 32) <= limit), (m, n, k)
    for positive in (False, True):
        a, b = operands(ta, tb, m, n, k, True, m + k)
        if positive:
            a.view().abs_()
            b.view().abs_()
        ours = product(handle, mode, ta, tb, m, n, k, a, b, 1.0, 0.0, True, k)
        if fp64:
            opa, opb = op(a.view(), ta).double(), op(b.view(), tb).double()
            assert_rounds_once(ours, opa @ opb, opa.abs() @ opb.abs(), k)


@pytest.mark.parametrize("alpha,beta,device_scalars", SCALARS,
                         ids=[f"a{a}-b{b}-{'dev' if d else 'host'}" for a, b, d in SCALARS])
@pytest.mark.parametrize("ta,tb", LAYOUTS)
@pytest.mark.parametrize("m,n,k,padded", [(129, 300, 7, False), (40, 33, 16, True), (5, 5, 1, True)])
def test_alpha_beta(handle, alpha, beta, device_scalars, ta, tb, m, n, k, padded):
    """alpha = 0 uses no A or B (NaN there must not show), beta = 0 reads no C."""
    takes_fp32_form(handle, "tf32tf32", ta, tb, m, n, k)
    seed = m + n + k
    a, b = operands(ta, tb, m, n, k, padded, seed, fill=float("nan") if alpha == 0 else None)
    product(handle, "tf32tf32", ta, tb, m, n, k, a, b, alpha, beta, padded, seed, device_scalars)


@pytest.mark.parametrize("form", ["strided", "array"])
@pytest.mark.parametrize("count", [3, 700])
@pytest.mark.parametrize("ta,tb", LAYOUTS)
@pytest.mark.parametrize("mode", CORRECTED)
def test_batches(handle, form, count, ta, tb, mode):
    """grid.y walks the products; odd strides and leading dimensions; nothing written
    between the products."""
    takes_fp32_form(handle, mode, ta, tb, 45, 20, 9, batch=count)
    run_batch(handle, form, ta, tb, 45, 20, 9, count, seed=count, mode=mode)
    run_batch(handle, form, ta, tb, 45, 20, 9, count, seed=count, mode=mode, alpha=-0.5, beta=0.75)


@pytest.mark.parametrize("k", [5, 12])
@pytest.mark.parametrize("mode", CORRECTED)
def test_a_product_has_the_same_bits_in_a_batch_and_alone(mode, k):
    import ecgemm
    g = torch.Generator(device="cuda").manual_seed(k)
    a = torch.rand(40, 50, k, device="cuda", generator=g) - 0.5
    b = torch.rand(40, k, 70, device="cuda", generator=g) - 0.5
    assert ecgemm.explain(a, b, mode=mode).startswith("family=fused_mma method=fp32 ")
    batch = ecgemm.matmul(a, b, mode=mode)
    for z in (0, 17, 39):
        assert torch.equal(batch[z], ecgemm.matmul(a[z], b[z], mode=mode)), z
