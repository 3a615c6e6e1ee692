"""The simt family's strip tile (SimtTile::kStrips in libecgemm/kernels/simt.hpp: small
products with k <= 32, or batches of them, a thread a strip of four rows of one column,
where the cost model prices it below the stream tile; ECGEMM_FAMILY=simt): every transpose,
ragged strips, both batch forms, alpha and beta, C outside the products untouched, the plan
that names the tile, and each product's bits equal to the same product computed alone and
to the stream tile's (its FMA chain, k in order). Batches of 1500 products: there the plan
takes the strip tile for every shape here (each test checks that it does).

Accuracy: element by element within the bound of test_simt_stream_gpu.py.
"""
import re

import pytest

from test_c_abi_gpu import ColMajor, handle, sgemm, torch  # noqa: F401 (handle: fixture)
from test_c_batched_gpu import NAN, Stack
from test_c_batched_gpu import batched as batched_call
from test_simt_stream_gpu import LAYOUTS, plan, run_batch
from test_simt_stream_gpu import simt_route  # noqa: F401 (autouse fixture: ECGEMM_FAMILY=simt)

pytestmark = pytest.mark.gpu

# (m, n): past the dot tile's 32 outputs; strips cut short (m % 4), single rows and columns.
SHAPES = [(16, 16), (41, 1), (1, 41), (3, 21), (242, 6), (7, 33), (2048, 1)]
KS = [1, 7, 16, 32]
COUNT = 1500


def takes_strips(handle, mode, ta, tb, m, n, k, count):
    text = plan(handle, mode, ta, tb, m, n, k, batch=count)
    assert re.search(r"family=simt .*tile=strips ", text), text


@pytest.mark.parametrize("aligned", [False, True], ids=["odd", "aligned"])
@pytest.mark.parametrize("m,n", SHAPES)
@pytest.mark.parametrize("ta,tb", LAYOUTS)
@pytest.mark.parametrize("k", KS)
def test_products(handle, m, n, ta, tb, k, aligned):
    """Odd leading dimensions and strides (rows interleaved), or packed ones (consecutive rows
    where m % 4 == 0, float4 loads and stores)."""
    takes_strips(handle, "fp32", ta, tb, m, n, k, COUNT)
    run_batch(handle, "strided", ta, tb, m, n, k, COUNT, seed=m * 31 + n * 7 + k, aligned=aligned)


@pytest.mark.parametrize("m,n", [(1, 1), (3, 5), (1, 12), (12, 1), (4, 8), (1, 31)])
@pytest.mark.parametrize("ta,tb", LAYOUTS)
@pytest.mark.parametrize("k", [1, 4, 7])
def test_batches_of_the_dot_tile_s_shapes(handle, monkeypatch, m, n, ta, tb, k):
    """Products of at most 32 outputs at k < 8, which the dot tile also takes (simt_alternative):
    on strips, "simt:strips" pinned, each product as the strip tile computes any other."""
    monkeypatch.setenv("ECGEMM_FAMILY", "simt:strips")
    takes_strips(handle, "fp32", ta, tb, m, n, k, COUNT)
    run_batch(handle, "strided", ta, tb, m, n, k, COUNT, seed=m * 31 + n * 7 + k)


@pytest.mark.parametrize("form", ["strided", "array"])
@pytest.mark.parametrize("count", [2, 3000])
@pytest.mark.parametrize("mode", ["fp32", "tf32tf32", "auto"])
def test_batch_counts_forms_and_modes(handle, form, count, mode):
    takes_strips(handle, mode, "T", "N", 23, 17, 9, count)
    run_batch(handle, form, "T", "N", 23, 17, 9, count, seed=count, mode=mode)


@pytest.mark.parametrize("alpha,beta", [(-1.5, 0.75), (0.0, 2.0), (2.0, 1.0), (0.0, 0.0)])
def test_alpha_beta(handle, alpha, beta):
    takes_strips(handle, "fp32", "N", "T", 13, 11, 20, COUNT)
    run_batch(handle, "strided", "N", "T", 13, 11, 20, COUNT, seed=5, alpha=alpha, beta=beta)


@pytest.mark.parametrize("ta,tb", LAYOUTS)
def test_each_product_has_the_bits_it_has_alone(handle, ta, tb):
    """A batched product equals the same product as a plain call (the stream tile), bit for
    bit: one FMA chain an output in both, k in increasing order."""
    count, m, n, k = COUNT, 23, 17, 29
    takes_strips(handle, "fp32", ta, tb, m, n, k, count)
    a_shape = (m, k) if ta == "N" else (k, m)
    b_shape = (k, n) if tb == "N" else (n, k)
    a = Stack(count, *a_shape, a_shape[0] + 1, (a_shape[0] + 1) * a_shape[1] + 3, seed=1)
    b = Stack(count, *b_shape, b_shape[0] + 2, (b_shape[0] + 2) * b_shape[1] + 1, seed=2)
    c = Stack(count, m, n, m, m * n, seed=3, fill=NAN)
    assert batched_call(handle, "strided", "fp32", ta, tb, m, n, k, 1.25, a, b, 0.0, c) == 0
    for z in (0, 1, count // 2, count - 1):
        alone = ColMajor(torch.full((m, n), NAN, device="cuda"), m)
        one_a, one_b = ColMajor(a.view(z), a.ld), ColMajor(b.view(z), b.ld)
        assert sgemm(handle, "fp32", ta, tb, m, n, k, 1.25, one_a, one_b, 0.0, alone) == 0
        assert torch.equal(c.view(z).contiguous().view(torch.int32),
                           alone.view().contiguous().view(torch.int32)), z


@pytest.mark.parametrize("ta,tb", LAYOUTS)
@pytest.mark.parametrize("m", [24, 9, 2])
def test_interleaved_rows_give_the_consecutive_rows_bits(handle, ta, tb, m):
    """The same batch into C with 16-byte columns (a thread's rows consecutive where A allows)
    and into C with ldc = m + 1 (rows interleaved, launch_strips): the same bits, each output
    one FMA chain over k in order either way."""
    count, n, k = COUNT, 17, 29
    a_shape = (m, k) if ta == "N" else (k, m)
    b_shape = (k, n) if tb == "N" else (n, k)
    lda = (a_shape[0] + 3) // 4 * 4  # A's columns 16-byte multiples: float4 loads where its rows are contiguous
    a = Stack(count, *a_shape, lda, lda * a_shape[1], seed=m)
    b = Stack(count, *b_shape, b_shape[0] + 1, (b_shape[0] + 1) * b_shape[1] + 3, seed=m + 1)
    takes_strips(handle, "fp32", ta, tb, m, n, k, count)
    out = []
    for ldc in ((m + 3) // 4 * 4, m + 1):
        c = Stack(count, m, n, ldc, ldc * n, seed=0, fill=NAN)
        assert batched_call(handle, "strided", "fp32", ta, tb, m, n, k, 1.0, a, b, 0.0, c) == 0
        out.append(c.views().contiguous().view(torch.int32))
    assert torch.equal(out[0], out[1])


@pytest.mark.parametrize("m,n", [(16, 16), (3, 21), (242, 6), (7, 33), (1, 41)])
def test_plan_takes_the_strip_tile_for_large_batches_of_small_products(handle, m, n):
    """Thousands of products that would fill a few percent of the stream tile's 128 x 64: the
    cost model prices the strip tile lower; never past k = 32."""
    for mode in ("fp32", "tf32tf32", "halfhalf"):
        text = plan(handle, mode, "N", "N", m, n, 7, batch=3000)
        assert re.search(r"family=simt .*tile=strips ", text), text
    assert "tile=strips" not in plan(handle, "fp32", "N", "N", m, n, 33, batch=3000)


@pytest.mark.parametrize("ta,tb", LAYOUTS)
@pytest.mark.parametrize("m,n_small,k,n_wide", [(64, 20, 7, 8192), (100, 20, 2, 8192), (33, 13, 4, 65536)])
def test_one_small_product_has_the_stream_tile_s_bits(handle, ta, tb, m, n_small, k, n_wide):
    """One small product on the strip tile equals, bit for bit, the first columns of a wide
    product on the stream tile with the same A (column j of C depends on column j of B
    alone): one FMA chain an output, k in order, in both tiles."""
    assert re.search(r"family=simt .*tile=strips ", plan(handle, "fp32", ta, tb, m, n_small, k))
    assert re.search(r"family=simt .*tile=stream ", plan(handle, "fp32", ta, tb, m, n_wide, k))
    g = torch.Generator(device="cuda").manual_seed(m + n_small + k)
    a_shape = (m, k) if ta == "N" else (k, m)
    a = ColMajor(torch.rand(a_shape, device="cuda", generator=g) * 2 - 1, a_shape[0] + 1)
    op_b = torch.rand(k, n_wide, device="cuda", generator=g) * 2 - 1
    wide_b = ColMajor(op_b if tb == "N" else op_b.t(), (k if tb == "N" else n_wide) + 3)
    small_b = ColMajor(op_b[:, :n_small] if tb == "N" else op_b[:, :n_small].t(),
                       (k if tb == "N" else n_small) + 2)
    wide = ColMajor(torch.full((m, n_wide), NAN, device="cuda"), m)
    small = ColMajor(torch.full((m, n_small), NAN, device="cuda"), m + 1)
    assert sgemm(handle, "fp32", ta, tb, m, n_wide, k, 1.0, a, wide_b, 0.0, wide) == 0
    assert sgemm(handle, "fp32", ta, tb, m, n_small, k, 1.0, a, small_b, 0.0, small) == 0
    torch.cuda.synchronize()
    assert torch.equal(small.view().contiguous().view(torch.int32),
                       wide.view()[:, :n_small].contiguous().view(torch.int32))
