"""simt's piped tiles (SimtTile::kPiped* in libecgemm/kernels/simt.hpp, kernels/simt/piped.cu;
ECGEMM_FAMILY=simt:piped, or simt:piped32x64 for one tile): every tile and transpose, ragged m and
n around the tiles' edges, k past one stage and one chunk, padded and unaligned operands (4-byte
copies) and packed aligned ones (16-byte copies), alpha and beta with BLAS's zero rules, split-K,
both batch forms, NaN and Inf where SGEMM puts them.

Accuracy: each output sums 32-long chunks of k and adds them into the result, so it stays within
test_simt_stream_gpu's element-wise bound, gamma_{k+3} of |alpha| |A||B| + |beta| |C0|; a wrong,
unwritten (NaN-poisoned) or doubly-scaled element fails it, rounding cannot.
"""
import re

import pytest

from test_c_abi_gpu import STATUS, handle, lib, torch  # noqa: F401 (handle: fixture)
from test_simt_stream_gpu import (LAYOUTS, NAN, SCALARS, assert_only_c_written, assert_only_products_written,
                                  batched, call, check_bound, odd_pad, op, operands, output, plan, stacks)

pytestmark = pytest.mark.gpu
TILES = ["piped32x32", "piped32x64", "piped64x32", "piped64x64", "piped64x128", "piped128x64"]
# (m, n, k): one element; around the 32- and 64-wide edges; k one stage past a chunk, odd k, long k
# on a grid small enough to split.
SHAPES = [(1, 1, 33), (31, 33, 40), (64, 65, 71), (97, 130, 257), (200, 37, 1000), (5, 300, 64),
          (40, 40, 5000)]


def pin(monkeypatch, tile):
    monkeypatch.setenv("ECGEMM_FAMILY", f"simt:{tile}")


def run_case(handle, ta, tb, m, n, k, alpha, beta, padded, seed, device_scalars=False, mode="fp32"):
    a, b = operands(ta, tb, m, n, k, padded, seed, fill=NAN if alpha == 0 else None)
    ldc, offset = (m + odd_pad(m), 1) if padded else (m, 0)
    c = output(m, n, ldc, offset, beta, seed)
    c0 = c.view().clone()
    assert call(handle, ta, tb, m, n, k, alpha, a, b, beta, c, device_scalars, mode) == STATUS["SUCCESS"]
    check_bound(c.view(), op(a.view(), ta), op(b.view(), tb), k, alpha, beta, c0)
    assert_only_c_written(c, m, n)
    return a, b, c


@pytest.mark.parametrize("padded", [False, True], ids=["packed", "padded"])
@pytest.mark.parametrize("m,n,k", SHAPES)
@pytest.mark.parametrize("ta,tb", LAYOUTS)
@pytest.mark.parametrize("tile", TILES)
def test_products(handle, monkeypatch, tile, ta, tb, m, n, k, padded):
    """beta = 0 over a NaN C: every element written, within the bound, nothing else touched.
    Padded: ld = rows + 1 (A), + 3 (B), ldc % 4 != 0 and every base one float off."""
    pin(monkeypatch, tile)
    assert f"tile={tile} " in plan(handle, "tf32tf32", ta, tb, m, n, k)
    run_case(handle, ta, tb, m, n, k, 1.0, 0.0, padded, seed=m * 7 + n * 3 + k, mode="tf32tf32")


@pytest.mark.parametrize("alpha,beta,device_scalars", SCALARS,
                         ids=[f"a{a}-b{b}-{'dev' if d else 'host'}" for a, b, d in SCALARS])
@pytest.mark.parametrize("ta,tb", LAYOUTS)
@pytest.mark.parametrize("m,n,k,padded", [(129, 300, 47, False), (70, 65, 3000, True)])
def test_alpha_beta(handle, monkeypatch, alpha, beta, device_scalars, ta, tb, m, n, k, padded):
    """BLAS's rules: alpha = 0 uses no A or B (NaN there must not show), beta = 0 reads no C;
    otherwise alpha * A B + beta * C within the bound. 70 x 65 x 3000 splits k (partials, the
    reducer applies alpha and beta)."""
    pin(monkeypatch, "piped")
    run_case(handle, ta, tb, m, n, k, alpha, beta, padded, seed=m + n + k, device_scalars=device_scalars)


@pytest.mark.parametrize("ta,tb", LAYOUTS)
@pytest.mark.parametrize("tile", TILES)
def test_copies_of_16_and_4_bytes_agree_bit_for_bit(handle, monkeypatch, tile, ta, tb):
    """The same A, B stored packed with ld % 4 = 0 on 16-byte aligned bases (16-byte copies where an
    operand's rows are contiguous) and one float off with odd ld (4-byte copies): the same bits."""
    pin(monkeypatch, tile)
    m, n, k = 132, 68, 200
    results = []
    for padded in (False, True):
        _, _, c = run_case(handle, ta, tb, m, n, k, 0.5, 0.0, padded, seed=11)
        results.append(c.view().contiguous().view(torch.int32))
    assert torch.equal(results[0], results[1])


def test_split_k_is_planned_and_within_the_bound(handle, monkeypatch):
    """A small grid over a long k splits it (partials in FP32 planes, a deterministic reduction)."""
    pin(monkeypatch, "piped32x32")
    m, n, k = 40, 40, 5000
    text = plan(handle, "tf32tf32", "N", "N", m, n, k)
    splits = int(re.search(r"splits=(\d+)", text).group(1))
    assert splits > 1, text
    _, _, first = run_case(handle, "N", "N", m, n, k, 1.0, 0.0, False, seed=3)
    _, _, again = run_case(handle, "N", "N", m, n, k, 1.0, 0.0, False, seed=3)
    assert torch.equal(first.view().contiguous().view(torch.int32), again.view().contiguous().view(torch.int32))


@pytest.mark.parametrize("packed", [True, False], ids=["packed", "padded"])
@pytest.mark.parametrize("form", ["strided", "array"])
@pytest.mark.parametrize("ta,tb", LAYOUTS)
@pytest.mark.parametrize("tile", ["piped32x32", "piped64x64"])
def test_batches(handle, monkeypatch, tile, ta, tb, form, packed):
    """Three products, each its own A, B and C (grid.y walks them), within the bound, nothing
    written outside them."""
    pin(monkeypatch, tile)
    m, n, k = 45, 70, 77
    a, b, c = stacks(ta, tb, m, n, k, 3, packed, c_fill=NAN)
    c0 = c.views().clone()
    assert batched(handle, form, ta, tb, m, n, k, 1.0, a, b, 0.0, c) == STATUS["SUCCESS"]
    check_bound(c.views(), op(a.views(), ta), op(b.views(), tb), k, 1.0, 0.0, c0)
    assert_only_products_written(c, m, n)


def test_nan_and_inf_where_sgemm_puts_them(handle, monkeypatch):
    """A NaN in row 3 of A makes row 3 of C NaN; an Inf in column 5 of B makes column 5 of C +-Inf
    or NaN as FP32 arithmetic gives; every other element finite and within the bound."""
    pin(monkeypatch, "piped")
    m, n, k = 70, 50, 90
    g = torch.Generator(device="cuda").manual_seed(5)
    a = torch.rand((m, k), device="cuda", generator=g) + 0.5
    b = torch.rand((k, n), device="cuda", generator=g) + 0.5
    a[3, 17] = NAN
    b[40, 5] = float("inf")
    from test_c_abi_gpu import ColMajor
    A, B = ColMajor(a, m), ColMajor(b, k)
    c = output(m, n, m, 0, 0.0, 1)
    assert call(handle, "N", "N", m, n, k, 1.0, A, B, 0.0, c) == STATUS["SUCCESS"]
    got = c.view()
    assert torch.isnan(got[3]).all()
    rest = torch.ones(m, dtype=torch.bool, device="cuda")
    rest[3] = False
    assert torch.isinf(got[rest, 5]).all() and (got[rest, 5] > 0).all()
    cols = torch.ones(n, dtype=torch.bool, device="cuda")
    cols[5] = False
    inner = got[rest][:, cols]
    check_bound(inner, a[rest], b[:, cols], k, 1.0, 0.0, inner)


def test_short_k_has_no_piped_plan(handle, monkeypatch):
    """k <= 32 belongs to the stream and strip tiles: the piped pin has no plan there, and the
    planner's own choice stands."""
    pin(monkeypatch, "piped")
    assert "tile=piped" not in plan(handle, "tf32tf32", "N", "N", 500, 500, 32)
    assert "tile=piped" in plan(handle, "tf32tf32", "N", "N", 500, 500, 33)
