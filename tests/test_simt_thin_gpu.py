"""The simt family's thin tiles (SimtTile::kThinM / kThinN, libecgemm/kernels/simt/thin.cu: one
side of C at most 8 wide against a long one, k >= 256, single products; ECGEMM_FAMILY=simt):
thin widths 1 .. 8, the long side ragged at a CTA's 256 rows, every transpose, packed and
padded operands (16-byte copies and single ones), k with a ragged last stage and split-K,
alpha and beta from the host and the device, alpha = 0 with NaN operands, and the plan that
names the tile.

Accuracy is checked element by element against the bound the stream-tile tests use
(test_simt_stream_gpu.py): (k + 4) u |alpha| |A||B| + ..., which two-level accumulation stays
far inside; a wrong, unwritten (NaN-poisoned) or doubly-scaled element fails it, and nothing
outside C may be written.
"""
import re

import pytest

from test_c_abi_gpu import handle, torch  # noqa: F401 (handle: fixture)
from test_simt_stream_gpu import LAYOUTS, plan, run_case
from test_simt_stream_gpu import simt_route  # noqa: F401 (autouse fixture: ECGEMM_FAMILY=simt)

pytestmark = pytest.mark.gpu

# (m, n): n thin (thin_m) or m thin (thin_n), the long side below, at and past 256 rows.
SHAPES = [(1000, 1), (513, 3), (257, 5), (2049, 8), (65, 7), (1, 900), (4, 256), (8, 1111), (6, 530)]
KS = [256, 1001, 6000]  # the bound; a last stage of 9; split-K


@pytest.mark.parametrize("m,n", SHAPES)
@pytest.mark.parametrize("ta,tb", LAYOUTS)
@pytest.mark.parametrize("k", KS)
def test_products(handle, m, n, ta, tb, k):
    padded = (m + n + k) % 2 == 0
    run_case(handle, ta, tb, m, n, k, 1.0, 0.0, padded, seed=m * 7 + n * 3 + k)


@pytest.mark.parametrize("m,n", SHAPES[::3])
@pytest.mark.parametrize("device_scalars", [False, True])
def test_alpha_beta(handle, m, n, device_scalars):
    run_case(handle, "T", "N", m, n, 700, -1.5, 0.75, True, seed=m + n, device_scalars=device_scalars)


@pytest.mark.parametrize("m,n", SHAPES[:2] + SHAPES[-2:])
def test_alpha_zero_reads_no_operand(handle, m, n):
    # run_case poisons A and B with NaN where alpha is 0: C must come out beta * C.
    run_case(handle, "N", "T", m, n, 300, 0.0, 2.0, True, seed=m)


@pytest.mark.parametrize("m,n", SHAPES)
def test_plan_takes_the_thin_tile(handle, m, n):
    tile = "thin_m" if n <= m else "thin_n"
    for mode in ("fp32", "tf32tf32", "halfhalf"):
        assert re.search(rf"family=simt .*tile={tile} ", plan(handle, mode, "N", "T", m, n, 256))
        # Below its k, and for batches, the slim tiles as before.
        assert "tile=thin" not in plan(handle, mode, "N", "T", m, n, 255)
        assert "tile=thin" not in plan(handle, mode, "N", "T", m, n, 5000, batch=3)


@pytest.mark.parametrize("m,n", [(1000, 9), (9, 1000), (700, 32)])
def test_wider_sides_keep_the_slim_tiles(handle, m, n):
    assert "tile=thin" not in plan(handle, "fp32", "N", "T", m, n, 5000)
