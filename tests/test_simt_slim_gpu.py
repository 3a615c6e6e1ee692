"""The simt family's slim tiles (SimtTile::kSlim* in libecgemm/kernels/simt.hpp: a thin
side of at most 16 or 32 against a long one; ECGEMM_FAMILY=simt): every transpose,
ragged thin and long sides at the tiles' edges, odd leading dimensions, split-K, alpha
and beta, a batch, and the plan that names the tile.

Accuracy is checked element by element against the bound the stream-tile tests use
(test_simt_stream_gpu.py): (k + 4) u |alpha| |A||B| + ..., which two-level accumulation
(32-long chunks) and split-K partials stay far inside; a wrong, unwritten (NaN-poisoned)
or doubly-scaled element fails it.
"""
import re

import pytest

from test_c_abi_gpu import STATUS, handle, torch  # noqa: F401 (handle: fixture)
from test_simt_stream_gpu import LAYOUTS, NAN, Stack, batched, check_bound, op, plan, run_case
from test_simt_stream_gpu import simt_route  # noqa: F401 (autouse fixture: ECGEMM_FAMILY=simt)

pytestmark = pytest.mark.gpu

# (m, n, tile): each slim tile at its thin side's edges, the long side ragged. (A side of at
# most 8 takes the thin tiles from k = 256 on: test_simt_thin_gpu.py.)
SHAPES = [(1000, 19, "128x32"), (301, 32, "128x32"), (29, 777, "32x128"), (17, 260, "32x128"),
          (999, 16, "256x16"), (513, 9, "256x16"), (9, 300, "16x256"), (13, 1030, "16x256")]
KS = [33, 257, 3000]  # past the stream tile; one and several 32-long chunks; split-K


@pytest.mark.parametrize("m,n,tile", SHAPES)
@pytest.mark.parametrize("ta,tb", LAYOUTS)
@pytest.mark.parametrize("k", KS)
def test_products(handle, m, n, tile, ta, tb, k):
    padded = (m + n + k) % 2 == 1
    run_case(handle, ta, tb, m, n, k, 1.0, 0.0, padded, seed=m * 7 + n * 3 + k)


@pytest.mark.parametrize("m,n,tile", SHAPES[::2])
def test_alpha_beta(handle, m, n, tile):
    run_case(handle, "N", "T", m, n, 300, -1.5, 0.75, True, seed=m + n)


@pytest.mark.parametrize("m,n,tile", SHAPES)
@pytest.mark.parametrize("k", [64, 5000])
def test_plan_takes_the_slim_tile(handle, m, n, tile, k):
    for mode in ("fp32", "tf32tf32", "halfhalf"):
        text = plan(handle, mode, "N", "T", m, n, k)
        assert re.search(rf"family=simt .*tile={tile} ", text), text


@pytest.mark.parametrize("form", ["strided", "array"])
@pytest.mark.parametrize("ta,tb", LAYOUTS)
def test_batches(handle, form, ta, tb):
    """Three slim products (grid.y walks them), padded, within the bound; nothing written
    outside them."""
    m, n, k, count = 700, 24, 300, 3
    a_shape = (m, k) if ta == "N" else (k, m)
    b_shape = (k, n) if tb == "N" else (n, k)
    lda, ldb, ldc = a_shape[0] + 1, b_shape[0] + 2, m + 3
    a = Stack(count, *a_shape, lda, lda * a_shape[1] + 3, seed=k)
    b = Stack(count, *b_shape, ldb, ldb * b_shape[1] + 5, seed=k + 1)
    c = Stack(count, m, n, ldc, ldc * n + 1, seed=k + 2, fill=NAN)
    assert batched(handle, form, ta, tb, m, n, k, 1.0, a, b, 0.0, c) == STATUS["SUCCESS"]
    check_bound(c.views(), op(a.views(), ta), op(b.views(), tb), k, 1.0, 0.0, c.views())
    inside = torch.zeros_like(c.buf, dtype=torch.bool)
    for z in range(count):
        inside[z * c.stride:].as_strided((m, n), (1, ldc)).fill_(True)
    assert torch.isnan(c.buf[~inside]).all(), "C was written outside its products"
