"""fused_wgmma's narrow tiles (ECGEMM_FAMILY=fused_wgmma:narrow): a side of C at most 64 wide
on the tile's N (16, 32 or 64) against 128 rows of the long side, on either side of C, in the
corrected modes and AUTO; every transpose, aligned and unaligned operands, split-K and batches, against an
FP64 product and cuBLAS SGEMM on the same inputs, C poisoned; unaligned operands (class maps or
copies) and copied batches bit-identical to the aligned ones."""
import pytest

from test_c_abi_gpu import (check_nan_inf_alpha_beta, check_product, cublas_sgemm, expected_class_ok,
                            handle, op, rel, torch)  # noqa: F401 (handle: fixture)
from test_fused_wgmma_gpu import (check_copied_batches_give_the_strided_bits,
                                  check_unaligned_operands_give_the_tma_bits)
from test_simt_stream_gpu import plan

pytestmark = pytest.mark.gpu
if torch.cuda.get_device_capability() != (9, 0):
    pytest.skip("the fused family is built for sm_90a (H100/H200)", allow_module_level=True)

MODES = ["tf32tf32", "halfhalf", "auto"]
# The narrow side at each width's edges (1, 16 | 17, 32 | 33, 64), on m or on n; long sides
# ragged around 128; k within one stage, ragged, and long over few tiles (split-K).
SHAPES = [(1, 300, 40), (300, 1, 40), (16, 1000, 257), (1000, 17, 513), (32, 129, 700),
          (129, 33, 64 * 37 + 5), (64, 2000, 300), (2000, 64, 300), (40, 1000, 20000),
          (7, 4099, 3000)]


def width(side):
    return 16 if side <= 16 else 32 if side <= 32 else 64


@pytest.fixture(autouse=True)
def narrow_route(monkeypatch):
    monkeypatch.setenv("ECGEMM_FAMILY", "fused_wgmma:narrow")


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("m,n,k", SHAPES)
def test_the_pin_plans_the_narrowest_tile(handle, mode, m, n, k):
    text = plan(handle, mode, "N", "N", m, n, k)
    method = "tf32tf32" if mode == "auto" else mode  # AUTO's products there, with FP32 stages
    assert f"family=fused_wgmma method={method} tile=128x{width(min(m, n))}" in text, text
    assert ("wide=fp32" in text) == (mode == "auto"), text
    assert (" swapped " in text) == (m < n), text


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("ta,tb", [("N", "N"), ("N", "T"), ("T", "N"), ("T", "T")])
@pytest.mark.parametrize("m,n,k", SHAPES)
@pytest.mark.parametrize("aligned", [True, False], ids=["tma", "global"])
def test_narrow_against_fp64_and_cublas(handle, mode, ta, tb, m, n, k, aligned):
    pad, offset = (0, 0) if aligned else (3, 1)  # ld % 4 != 0 and a 4-byte offset: class maps
    check_product(handle, mode, ta, tb, m, n, k, pad, offset, seed=m * 7 + n + k)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("m,n,k", [(40, 3000, 50), (3000, 20, 3000)])
def test_narrow_nan_inf_alpha_beta(handle, mode, m, n, k):
    check_nan_inf_alpha_beta(handle, mode, m, n, k)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("ta,tb", [("N", "N"), ("N", "T"), ("T", "N"), ("T", "T")])
@pytest.mark.parametrize("m,n,k", [(3, 700, 300), (16, 1000, 257), (1000, 17, 513),
                                   (129, 33, 64 * 37 + 5), (40, 1000, 20000)])
def test_unaligned_operands_give_the_tma_bits(handle, mode, ta, tb, m, n, k):
    check_unaligned_operands_give_the_tma_bits(handle, mode, ta, tb, m, n, k)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("ta,tb", [("N", "N"), ("T", "T")])
@pytest.mark.parametrize("m,n", [(700, 24), (9, 700)])
def test_batches_pointer_array_give_the_strided_bits(handle, mode, ta, tb, m, n):
    # Batches take the narrow tiles too (grid.y walks the products); copied batches give the
    # strided (TMA) batch's bits, each product within the mode's class.
    k, count = 300, 3
    a, b, out = check_copied_batches_give_the_strided_bits(handle, mode, ta, tb, m, n, k, count)
    for z in range(count):
        opa, opb = op(a.view(z), ta), op(b.view(z), tb)
        ref = opa.double() @ opb.double()
        res, res_cublas = rel(out[z], ref), rel(cublas_sgemm(opa, opb), ref)
        assert expected_class_ok(mode, res, res_cublas, k), (z, res, res_cublas)
