"""The fused Hopper family (operands split inside the kernel; ECGEMM_FAMILY=fused_wgmma)
on every mode, transpose, TMA source (K-major, M/N-major; one map, four class maps where a base or
leading dimension is off 16 bytes, copies by the transform threads),
tile shape (128 x 128, and 64 x 128 with and without the swap) and split-K, against
an FP64 product and cuBLAS SGEMM on the same inputs."""
import pytest

from test_c_abi_gpu import (MODES, STATUS, ColMajor, check_nan_inf_alpha_beta, check_product,
                            cublas_sgemm, expected_class_ok, handle, make_problem, op, rel, sgemm,
                            torch)  # noqa: F401 (handle: fixture)

pytestmark = pytest.mark.gpu
if torch.cuda.get_device_capability() != (9, 0):
    pytest.skip("the fused family is built for sm_90a (H100/H200)", allow_module_level=True)

TC_MODES = [m for m in MODES if m != "fp32"]
# 128 x 128 tiles; 64-row tiles (m <= 64) and swapped ones (n <= 64 < m); split-K (few
# tiles, long k); ragged everything.
SHAPES = [(1, 1, 1), (130, 257, 300), (64, 300, 2000), (300, 64, 2000), (1, 700, 513),
          (700, 1, 513), (257, 129, 64 * 37 + 5), (33, 40, 20000)]


@pytest.fixture(autouse=True)
def fused_route(monkeypatch):
    monkeypatch.setenv("ECGEMM_FAMILY", "fused_wgmma")


@pytest.mark.parametrize("mode", TC_MODES)
@pytest.mark.parametrize("ta,tb", [("N", "N"), ("N", "T"), ("T", "N"), ("T", "T")])
@pytest.mark.parametrize("m,n,k", SHAPES)
@pytest.mark.parametrize("aligned", [True, False], ids=["tma", "global"])
def test_fused_against_fp64_and_cublas(handle, mode, ta, tb, m, n, k, aligned):
    pad, offset = (0, 0) if aligned else (3, 1)  # ld % 4 != 0 and a 4-byte offset: class maps
    check_product(handle, mode, ta, tb, m, n, k, pad, offset, seed=m * 7 + n + k)


@pytest.mark.parametrize("mode", ["tf32tf32", "halfhalf", "auto"])
@pytest.mark.parametrize("m,n,k", [(40, 36, 50), (200, 40, 3000)])
def test_fused_nan_inf_alpha_beta(handle, mode, m, n, k):
    check_nan_inf_alpha_beta(handle, mode, m, n, k)


@pytest.mark.parametrize("mode", ["tf32tf32", "halfhalf"])
@pytest.mark.parametrize("ta,tb", [("N", "N"), ("T", "T")])
@pytest.mark.parametrize("m,n,k", [(64, 4100, 700), (4100, 48, 700)])
def test_default_rule_sends_one_skinny_side_to_the_fused_family(handle, monkeypatch, mode, ta, tb,
                                                                m, n, k):
    # No pin: planner.cpp's measured rule picks the fused family for these shapes.
    monkeypatch.delenv("ECGEMM_FAMILY", raising=False)
    a, b = make_problem(ta, tb, m, n, k, seed=k)
    c = ColMajor(torch.full((m, n), float("nan"), device="cuda"), m)
    assert sgemm(handle, mode, ta, tb, m, n, k, 1.0, a, b, 0.0, c) == STATUS["SUCCESS"]
    opa, opb = op(a.view(), ta), op(b.view(), tb)
    ref = opa.double() @ opb.double()
    res, res_cublas = rel(c.view(), ref), rel(cublas_sgemm(opa, opb), ref)
    assert expected_class_ok(mode, res, res_cublas, k), (res, res_cublas)


@pytest.mark.parametrize("mode", TC_MODES)
@pytest.mark.parametrize("ta,tb", [("N", "N"), ("N", "T"), ("T", "N"), ("T", "T")])
@pytest.mark.parametrize("m,n,k", [(130, 257, 300), (300, 64, 2000), (1, 700, 513),
                                   (257, 129, 64 * 37 + 5)])
def test_unaligned_operands_give_the_tma_bits(handle, mode, ta, tb, m, n, k):
    check_unaligned_operands_give_the_tma_bits(handle, mode, ta, tb, m, n, k)


# (ld % 4, offset in floats): every shift of the four class maps, on either side; a base
# off 16 bytes with an aligned ld.
PLACEMENTS = [(1, 1), (2, 2), (3, 3), (1, 0), (3, 2), (0, 1)]


def check_unaligned_operands_give_the_tma_bits(handle, mode, ta, tb, m, n, k, prepare=None):
    """An operand whose base or leading dimension is off 16 bytes is loaded through four
    class maps (or, with fewer than four lines, copied by the transform threads) into the
    values TMA loads: every placement of the same values gives the bits of the aligned one.
    `prepare(a, b)` may change the values (in place) first. Returns the aligned product."""
    a, b = make_problem(ta, tb, m, n, k, seed=m + n + k)
    if prepare is not None:
        prepare(a.view(), b.view())

    def place(x, residue, offset):  # ld: the smallest above rows (+1) with ld % 4 == residue
        ld = x.rows + 1 + (residue - x.rows - 1) % 4
        return ColMajor(x.view(), ld, offset)

    def product(pa, pb):
        c = ColMajor(torch.full((m, n), float("nan"), device="cuda"), m)
        assert sgemm(handle, mode, ta, tb, m, n, k, 1.0, place(a, *pa), place(b, *pb), 0.0,
                     c) == STATUS["SUCCESS"]
        return c.view().clone()

    aligned = product((0, 0), (0, 0))
    assert torch.isfinite(aligned).all()
    for i, pa in enumerate(PLACEMENTS):
        pb = PLACEMENTS[(i + 2) % len(PLACEMENTS)]
        assert torch.equal(product(pa, pb), aligned), (pa, pb)
    return aligned


@pytest.mark.parametrize("mode", ["tf32tf32", "halfhalf", "auto"])
@pytest.mark.parametrize("ta,tb", [("N", "N"), ("T", "T")])
def test_copied_batches_give_the_strided_tma_bits(handle, mode, ta, tb):
    check_copied_batches_give_the_strided_bits(handle, mode, ta, tb, 130, 72, 300, 3)


def check_copied_batches_give_the_strided_bits(handle, mode, ta, tb, m, n, k, count):
    """A pointer-array batch, and a strided one whose stride is off 16 bytes, are copied by
    the transform threads; the same products as a strided batch of 16-byte aligned rows
    (TMA) give the same bits. Returns the operand stacks and the product stack."""
    from test_c_batched_gpu import Stack, batched
    a_shape = (m, k) if ta == "N" else (k, m)
    b_shape = (k, n) if tb == "N" else (n, k)
    lda, ldb = (a_shape[0] + 3) // 4 * 4, (b_shape[0] + 3) // 4 * 4
    def stacks(skew):  # the same values (same seeds), batch strides skew floats past 16-byte rows
        return (Stack(count, *a_shape, lda, lda * a_shape[1] + skew, seed=3),
                Stack(count, *b_shape, ldb, ldb * b_shape[1] + 3 * skew, seed=4))

    aligned = stacks(0)
    outs = []
    for form, (a, b) in (("strided", aligned), ("array", aligned), ("strided", stacks(1)),
                         ("strided", stacks(2))):
        c = Stack(count, m, n, m, m * n, fill=float("nan"))
        assert batched(handle, form, mode, ta, tb, m, n, k, 1.0, a, b, 0.0, c) == STATUS["SUCCESS"]
        outs.append(c.views().clone())
    assert torch.isfinite(outs[0]).all()
    for form, out in zip(("array", "strided +1", "strided +2"), outs[1:]):
        assert torch.equal(outs[0], out), form
    return aligned[0], aligned[1], outs[0]
