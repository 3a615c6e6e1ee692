"""The planner's accuracy rules on the shapes issue 25 found below SGEMM (their speed is a bench
figure: bench/results/planner-2026-11-23): at small k the corrected modes run an FP32 route
(their own split error would exceed SGEMM's there), and a long k against narrow sides is never one
FP32 accumulation as long as k. Residuals against FP64 and cuBLAS SGEMM on the same inputs; the
output poisoned first."""
import re

import pytest

import ecgemm

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.gpu
CORRECTED = ["tf32tf32", "halfhalf", "auto"]
FP32_ROUTE_MAX_K = 32  # libecgemm/planner.cpp: kFp32RouteMaxK


def _operands(m, k, n, seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    a = torch.rand(m, k, device="cuda", generator=g) * 2 - 1
    b = torch.rand(k, n, device="cuda", generator=g) * 2 - 1
    return a, b


def _residuals(a, b, mode):
    """(ecgemm's, SGEMM's) relative Frobenius residual against the FP64 product."""
    ref = a.double() @ b.double()
    out = torch.full((a.shape[0], b.shape[1]), float("nan"), device="cuda")
    ecgemm.matmul(a, b, out=out, mode=mode)
    torch.backends.cuda.matmul.allow_tf32 = False
    sgemm = a @ b
    norm = torch.linalg.vector_norm(ref).item()
    return ((torch.linalg.vector_norm(out.double() - ref).item() / norm),
            (torch.linalg.vector_norm(sgemm.double() - ref).item() / norm))


@pytest.mark.parametrize("mode", CORRECTED)
@pytest.mark.parametrize("k", [1, 2, 3, 4, 9, 16])
@pytest.mark.parametrize("m,n", [(2048, 1536), (19, 1817), (190, 187)])
def test_small_k_takes_an_fp32_route_as_accurate_as_sgemm(mode, k, m, n):
    """simt's stream tile where C's bytes decide, fused_mma's FP32 form where the latency of
    tens of thousands of outputs does (bench/results/tiny-2026-11-25)."""
    a, b = _operands(m, k, n, seed=k)
    plan = ecgemm.explain(a, b, mode=mode)
    assert re.match(r"family=(simt|gemv|fused_mma) method=fp32", plan), plan
    ours, sgemm = _residuals(a, b, mode)
    # The same FP32 class as SGEMM: one FMA chain per output (at k <= 4 the bits of cuBLAS's);
    # the FP32 form's chains of 4 from k = 8 (fused_mma.cu: kFp32GroupMinK) at or below it.
    grouped = plan.startswith("family=fused_mma") and k >= 8
    bound = 1.0 if grouped else 1.0 + 1e-3 if k <= 4 else 1.1
    assert ours <= sgemm * bound, (plan, ours, sgemm)


@pytest.mark.parametrize("mode", CORRECTED)
def test_small_k_just_above_the_fp32_routes_stays_fp32_class(mode):
    a, b = _operands(1024, FP32_ROUTE_MAX_K + 1, 1024, seed=3)
    ours, sgemm = _residuals(a, b, mode)
    assert ours <= 1.5 * sgemm, (ecgemm.explain(a, b, mode=mode), ours, sgemm)


@pytest.mark.parametrize("mode", CORRECTED)
@pytest.mark.parametrize("m,k,n", [(16, 16384, 16384), (16384, 16384, 16), (8, 65536, 64)])
def test_long_k_narrow_at_or_below_sgemm(mode, m, k, n):
    a, b = _operands(m, k, n, seed=m + n)
    ours, sgemm = _residuals(a, b, mode)
    assert ours <= sgemm, (ecgemm.explain(a, b, mode=mode), ours, sgemm)


@pytest.mark.parametrize("mode", CORRECTED)
@pytest.mark.parametrize("m,k,n", [(859, 4533, 2437), (7971, 4233, 842), (2114, 11220, 2645), (7612, 13347, 530)])
def test_long_k_on_grids_that_fill_the_gpu_at_or_below_sgemm(mode, m, k, n):
    """The random sample's long-k products whose grids fill the GPU but end on a partial wave: as one chain a
    CTA, tf32tf32 ran 1.003-1.065x SGEMM's residual there (bench/results/lab-long-k-2026-11-27), where cuBLAS
    splits k. The planner prices splits that finish the waves sooner (splitk_plan.hpp: splits_fill_waves)."""
    a, b = _operands(m, k, n, seed=k)
    ours, sgemm = _residuals(a, b, mode)
    assert ours <= sgemm, (ecgemm.explain(a, b, mode=mode), ours, sgemm)


@pytest.mark.parametrize("mode", CORRECTED)
@pytest.mark.parametrize("pin", [None, "fused_wgmma:narrow"])
@pytest.mark.parametrize("m,k,n,ta", [(17, 7126, 10649, True), (10649, 7126, 17, False), (32, 15377, 2252, True),
                                      (20, 2582, 14679, False), (43, 12601, 15299, False), (3892, 10057, 22, True)])
def test_thin_long_k_at_or_below_sgemm(mode, pin, m, k, n, ta, monkeypatch):
    """A side of C at most 64 against long k, where cuBLAS splits k into short chains: 17 x 7126 x 10649 (A
    transposed) on fused_wgmma's narrow tiles in 3 splits of 2375 ran 1.12x SGEMM's residual in tf32tf32
    (bench/results/README.md#slim-vs-narrow). fused_wgmma chains at most 128 Tensor Core k-steps there
    (splitk_plan.hpp: kThinMaxChainSteps), on the planner's route and pinned."""
    if pin:
        monkeypatch.setenv("ECGEMM_FAMILY", pin)
    g = torch.Generator(device="cuda").manual_seed(k)
    a = (torch.rand(k, m, device="cuda", generator=g) * 2 - 1).t() if ta else \
        torch.rand(m, k, device="cuda", generator=g) * 2 - 1
    b = torch.rand(k, n, device="cuda", generator=g) * 2 - 1
    plan = ecgemm.explain(a, b, mode=mode)
    if pin:
        assert "family=fused_wgmma" in plan, plan
    ours, sgemm = _residuals(a, b, mode)
    assert ours <= sgemm, (plan, ours, sgemm)


@pytest.mark.parametrize("mode", CORRECTED)
@pytest.mark.parametrize("family,m,k,n", [("planes", 859, 4533, 2437), ("fused_wgmma", 2100, 3000, 1100)])
def test_a_full_grid_split_writes_every_output_with_beta(mode, family, m, k, n, monkeypatch):
    """A split plan on a grid that fills the GPU (140 and 153 tiles: K cut to fill the second wave) writes every
    element of C (poisoned with NaN where beta = 0), adds beta * C once, and agrees with the same route unsplit to
    the accuracy of either."""
    a, b = _operands(m, k, n, seed=5)
    c0 = torch.rand(m, n, device="cuda") * 2 - 1
    monkeypatch.setenv("ECGEMM_FAMILY", family)
    plan = ecgemm.explain(a, b, mode=mode)
    assert f"family={family}" in plan and "splits=1 " not in plan and "splits=1/" not in plan, plan
    ref = a.double() @ b.double()
    for beta in (0.0, 0.5):
        outs = []
        for pin in (family, family + "/unsplit"):
            monkeypatch.setenv("ECGEMM_FAMILY", pin)
            out = c0.clone() if beta else torch.full((m, n), float("nan"), device="cuda")
            ecgemm.matmul(a, b, out=out, mode=mode, alpha=1.0, beta=beta)
            outs.append(out.double())
        want = ref + beta * c0.double()
        norm = torch.linalg.vector_norm(want).item()
        for out in outs:
            assert torch.isfinite(out).all(), plan
            assert torch.linalg.vector_norm(out - want).item() / norm < 2e-6, plan
