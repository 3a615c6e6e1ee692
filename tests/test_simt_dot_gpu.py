"""The simt family's dot tile (SimtTile::kDot in libecgemm/kernels/simt.hpp: batches of
products whose m and n, rounded up to powers of two, give at most 32 outputs; a warp per
product; ECGEMM_FAMILY=simt): every bound of m x n, every transpose, k from 1 to past
two-level chunks, both batch forms, batch counts around a block's eight products,
alpha and beta, and the plan that names the tile.

Accuracy: element by element within the bound of test_simt_stream_gpu.py, (k + 4) u
|alpha| |A||B| + ...; a lane's chain of at most 32 products, added into its result, then
five butterfly additions, stays far inside it. C outside its products stays NaN.
"""
import re

import pytest

from test_c_abi_gpu import handle  # noqa: F401 (fixture)
from test_simt_stream_gpu import LAYOUTS, plan, run_batch
from test_simt_stream_gpu import simt_route  # noqa: F401 (autouse fixture: ECGEMM_FAMILY=simt)

pytestmark = pytest.mark.gpu

# (m, n): each power-of-two bound on m x n up to 32 outputs, most at a ragged size.
SHAPES = [(1, 1), (2, 2), (3, 5), (5, 1), (1, 31), (32, 1), (2, 16), (7, 4), (4, 8), (16, 2),
          (1, 9), (3, 3)]
KS = [1, 7, 33, 1000, 2500]  # below a warp, one lane each, and past a lane's 32-long chain


@pytest.fixture
def dot_pinned(monkeypatch):
    """"simt:dot": the dot tile at every k, where plain "simt" may price a piped tile lower at 28-32 outputs."""
    monkeypatch.setenv("ECGEMM_FAMILY", "simt:dot")


@pytest.mark.parametrize("m,n", SHAPES)
@pytest.mark.parametrize("ta,tb", LAYOUTS)
@pytest.mark.parametrize("k", KS)
def test_products(handle, dot_pinned, m, n, ta, tb, k):
    assert "tile=dot " in plan(handle, "fp32", ta, tb, m, n, k, batch=11), (m, n, k)
    run_batch(handle, "strided", ta, tb, m, n, k, 11, seed=m * 31 + n * 7 + k)


@pytest.mark.parametrize("m,n", SHAPES)
@pytest.mark.parametrize("k", [1, 7, 32])
def test_products_pinned_at_short_k(handle, monkeypatch, m, n, k):
    """Below k = 8 the planner may take the strip tile instead (simt_alternative); "simt:dot" keeps
    the dot tile's lanes, each with at most one product, under test at short k."""
    monkeypatch.setenv("ECGEMM_FAMILY", "simt:dot")
    assert re.search(r"family=simt .*tile=dot ", plan(handle, "fp32", "T", "N", m, n, k, batch=11)), (m, n, k)
    run_batch(handle, "strided", "T", "N", m, n, k, 11, seed=m * 31 + n * 7 + k)


@pytest.mark.parametrize("form", ["strided", "array"])
@pytest.mark.parametrize("count", [1, 8, 9, 3000])
def test_batch_counts_and_forms(handle, form, count):
    run_batch(handle, form, "T", "N", 3, 5, 77, count, seed=count)


@pytest.mark.parametrize("alpha,beta", [(-1.5, 0.75), (0.0, 2.0), (2.0, 1.0)])
def test_alpha_beta(handle, dot_pinned, alpha, beta):
    run_batch(handle, "strided", "N", "T", 4, 7, 300, 13, seed=5, alpha=alpha, beta=beta)


@pytest.mark.parametrize("m,n", SHAPES)
def test_plan_takes_the_dot_tile_for_batches_only(handle, monkeypatch, m, n):
    """Pinned to simt, a batch of such products takes the dot tile, or a piped tile where its batch row prices
    it lower (28-32 outputs at k = 500: bench/results/piped-2026-12-07, call B); a single product never does."""
    for mode in ("fp32", "tf32tf32", "halfhalf"):
        text = plan(handle, mode, "N", "N", m, n, 500, batch=64)
        if "tile=piped" in text:
            monkeypatch.setenv("ECGEMM_FAMILY", "simt:dot")
            dot = plan(handle, mode, "N", "N", m, n, 500, batch=64)
            monkeypatch.setenv("ECGEMM_FAMILY", "simt")
            est = lambda t: float(t.split("est=")[1].removesuffix("us"))  # noqa: E731
            assert "tile=dot " in dot and est(text) < est(dot), (text, dot)
        else:
            assert re.search(r"family=simt .*tile=dot ", text), text
    assert "tile=dot" not in plan(handle, "fp32", "N", "N", m, n, 500, batch=1)
    assert "tile=dot" not in plan(handle, "fp32", "N", "N", 8, 8, 500, batch=64)  # 64 outputs
