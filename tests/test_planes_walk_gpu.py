"""The plane route's walking mainloop (PlanesPlan::walk, libecgemm/kernels/sm90/planes_mainloop.cu:
persistent CTAs, at most one an SM, walking the tiles and K splits): ECGEMM_FAMILY=planes:walk against
planes:plain (one CTA a tile) on the same plans. The two run the same consumer and epilogue per tile, so
every element of C must carry the same bits: over every mode, every transpose, padded leading dimensions
and unaligned bases, alpha and beta (beta = 0 over a NaN-poisoned C), CTAs that walk several tiles and
several K splits, and grids smaller than the GPU. Each walked C is also checked against FP64 and cuBLAS
SGEMM (check_product's class bound), and the planner's rule is checked where it decides: walk on grids of
more than five waves whose CTAs run at most 16 K slices."""
import pytest

from test_c_abi_gpu import (ColMajor, STATUS, check_product, handle, make_problem, sgemm,  # noqa: F401
                            torch)
from test_simt_stream_gpu import plan

pytestmark = pytest.mark.gpu
if torch.cuda.get_device_capability() != (9, 0):
    pytest.skip("the plane route walks on its sm_90a mainloop only (H100/H200)", allow_module_level=True)

MODES = ["tf32tf32", "halfhalf", "tf32", "fp16", "markidis"]
LAYOUTS = [("N", "N"), ("N", "T"), ("T", "N"), ("T", "T")]
# (m, n, k): 300 tiles of one slice (two or three a CTA), ragged edges on both sides; a long k the
# plan splits (work items of tiles x splits); a grid under one wave.
SHAPES = [(2000, 2431, 40), (1537, 1663, 250), (700, 900, 5000), (130, 257, 300)]


def run(monkeypatch, handle, pin, mode, ta, tb, m, n, k, alpha, beta, pad, offset, seed):
    monkeypatch.setenv("ECGEMM_FAMILY", pin)
    a, b = make_problem(ta, tb, m, n, k, pad, offset, seed=seed)
    g = torch.Generator(device="cuda").manual_seed(seed + 1)
    c0 = torch.rand((m, n), device="cuda", generator=g) - 0.5 if beta != 0 else \
        torch.full((m, n), float("nan"), device="cuda")
    c = ColMajor(c0, m + pad, offset)
    assert sgemm(handle, mode, ta, tb, m, n, k, alpha, a, b, beta, c) == STATUS["SUCCESS"]
    return c.buf.clone(), plan(handle, mode, ta, tb, m, n, k)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("ta,tb", LAYOUTS)
@pytest.mark.parametrize("m,n,k", SHAPES)
def test_walk_gives_the_plain_kernel_s_bits(monkeypatch, handle, mode, ta, tb, m, n, k):
    pad, offset = (3, 1) if (m + k) % 2 else (0, 0)
    beta = 0.0 if (n + k) % 2 else -0.5
    args = (mode, ta, tb, m, n, k, 0.75, beta, pad, offset, m + n + k)
    walked, walk_plan = run(monkeypatch, handle, "planes:walk", *args)
    plain, plain_plan = run(monkeypatch, handle, "planes:plain", *args)
    assert "family=planes" in walk_plan, walk_plan
    assert " walk " in walk_plan and " walk " not in plain_plan, (walk_plan, plain_plan)
    assert torch.equal(torch.isnan(walked), torch.isnan(plain))  # the padding rows alike: untouched
    fin = ~torch.isnan(plain)
    assert torch.equal(walked[fin], plain[fin]), (mode, ta, tb, m, n, k)


@pytest.mark.parametrize("mode", ["tf32tf32", "halfhalf"])
@pytest.mark.parametrize("m,n,k", SHAPES[:2])
def test_walked_products_keep_their_accuracy_class(monkeypatch, handle, mode, m, n, k):
    monkeypatch.setenv("ECGEMM_FAMILY", "planes:walk")
    check_product(handle, mode, "T", "N", m, n, k, 2, 1, seed=m + k)


@pytest.mark.parametrize("mode", ["tf32tf32", "halfhalf"])
def test_the_planner_walks_many_waves_of_few_slices(monkeypatch, handle, mode):
    monkeypatch.setenv("ECGEMM_FAMILY", "planes")
    assert " walk " in plan(handle, mode, "N", "N", 8192, 8192, 64)       # 4096 tiles, 1-2 slices
    assert " walk " in plan(handle, mode, "N", "N", 4096, 4096, 256)      # 1024 tiles, 4-8 slices
    assert " walk " not in plan(handle, mode, "N", "N", 2048, 2048, 64)   # two waves
    assert " walk " not in plan(handle, mode, "N", "N", 2560, 2560, 64)   # three
    assert " walk " not in plan(handle, mode, "N", "N", 4096, 4096, 4096)  # 64-128 slices a CTA
