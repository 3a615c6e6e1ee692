"""N-D ``matmul`` on a GPU: stacks in both batch forms (strided, pointer arrays), every
mode, NumPy / PyTorch / CuPy / Numba operands, NaN-poisoned out with beta = 0, and the
Cython fast path against the general path. Accuracy per item: error vs FP64 within
max(1.25 x cuBLAS SGEMM's on the same inputs, MAGMA's bound) for the corrected modes."""

import numpy as np
import pytest

import ecgemm
from _numerics_hypothesis import accepted_error
from ecgemm._layout import as_stack, matmul_shapes, plan_batch
from ecgemm._operands import as_operand
from test_python_gpu import RESIDUAL_BOUND, cupy, numba_cuda, rand, residual, torch  # noqa: F401

pytestmark = pytest.mark.gpu

CORRECTED = ("tf32tf32", "halfhalf", "fp32", "auto")
BATCH, M, K, N = 6, 33, 127, 65  # ragged on purpose


def batch_form(a, b, out):
    """"strided" or "pointers": which batched call ecgemm makes for these arrays."""
    shapes = matmul_shapes(as_operand(a, "a"), as_operand(b, "b"))
    plan = plan_batch(shapes.a, shapes.b, as_stack(as_operand(out, "out"), shapes))
    return "strided" if plan.strides is not None else "pointers"


def check_items(got, a, b, mode, reference):
    """Every item of the stack `got` against FP64 (and cuBLAS's `reference` for SGEMM-class)."""
    a64, b64 = np.asarray(a, np.float64), np.asarray(b, np.float64)
    exact = np.matmul(a64, b64)
    items_exact = exact.reshape((-1,) + exact.shape[-2:])
    items_got = np.asarray(got, np.float64).reshape(items_exact.shape)
    items_ref = np.asarray(reference, np.float64).reshape(items_exact.shape)
    a_items = np.broadcast_to(a64, exact.shape[:-2] + a64.shape[-2:]).reshape(
        (-1,) + a64.shape[-2:])
    b_items = np.broadcast_to(b64, exact.shape[:-2] + b64.shape[-2:]).reshape(
        (-1,) + b64.shape[-2:])
    assert not np.isnan(items_got).any()
    for item, (g, e, r) in enumerate(zip(items_got, items_exact, items_ref)):
        error = np.linalg.norm(g - e)
        if mode in CORRECTED:
            allowed = accepted_error(np.linalg.norm(r - e), a_items[item], b_items[item], None,
                                     1.0, 0.0)
            assert error <= allowed, (item, error, allowed)
        else:
            assert error / np.linalg.norm(e) <= RESIDUAL_BOUND[mode], (item, mode)


def torch_sgemm(torch, a, b):
    """cuBLAS SGEMM (TF32 off) through PyTorch, for the reference error."""
    previous = torch.backends.cuda.matmul.allow_tf32
    torch.backends.cuda.matmul.allow_tf32 = False
    try:
        return torch.matmul(a, b).cpu().numpy()
    finally:
        torch.backends.cuda.matmul.allow_tf32 = previous


STACKS = {  # name: (shape of a, shape of b, how b is laid out, expected form)
    "strided": ((BATCH, M, K), (BATCH, K, N), "C", "strided"),
    "2-D b broadcast": ((BATCH, M, K), (K, N), "C", "strided"),
    "4-D folded": ((2, 3, M, K), (2, 3, K, N), "F", "strided"),
    "cross broadcast": ((2, 1, M, K), (1, 3, K, N), "C", "pointers"),
}  # negative batch strides (pointer arrays too): CuPy below, PyTorch has none


@pytest.mark.parametrize("mode", ecgemm.MODES)
@pytest.mark.parametrize("stack", list(STACKS))
def test_torch_stacks_every_mode_and_both_forms(torch, mode, stack):
    shape_a, shape_b, how, form = STACKS[stack]
    a_host, b_host = rand(shape_a, 1), rand(shape_b, 2)
    a = torch.from_numpy(a_host).cuda()
    b = torch.from_numpy(b_host).cuda()
    if how == "F":
        b = b.transpose(-1, -2).contiguous().transpose(-1, -2)
    out = torch.full(np.matmul(a_host, b_host).shape, float("nan"), device="cuda")
    assert batch_form(a, b, out) == form
    assert ecgemm.matmul(a, b, out=out, mode=mode) is out  # beta = 0: NaN never read
    returned = ecgemm.matmul(a, b, mode=mode)
    torch.cuda.synchronize()
    assert returned.shape == out.shape and torch.equal(returned, out)
    check_items(out.cpu().numpy(), a_host, b_host, mode, torch_sgemm(torch, a, b))


@pytest.mark.parametrize("mode", CORRECTED)
def test_cupy_negative_batch_strides_run_on_pointer_arrays(cupy, torch, mode):
    a_host, b_host = rand((BATCH, M, K), 3), rand((BATCH, K, N), 4)
    a = cupy.asarray(a_host)
    b = cupy.asarray(b_host[::-1].copy())[::-1]  # negative batch stride
    out = cupy.full((BATCH, M, N), cupy.nan, dtype=cupy.float32)
    assert batch_form(a, b, out) == "pointers"
    ecgemm.matmul(a, b, out=out, mode=mode)
    reference = torch_sgemm(torch, torch.from_numpy(a_host).cuda(), torch.from_numpy(b_host).cuda())
    check_items(cupy.asnumpy(out), a_host, b_host, mode, reference)


def test_pointer_arrays_survive_back_to_back_calls_on_two_streams(cupy):
    """The per-handle pointer buffer is reused: a call on another stream must not
    overwrite it while the previous call still reads it."""
    a_host = rand((2, 1, M, K), 5)
    b_host = rand((1, 3, K, N), 6)
    a, b = cupy.asarray(a_host), cupy.asarray(b_host)
    expected = ecgemm.matmul(a_host, b_host)
    outs = []
    streams = [cupy.cuda.Stream(non_blocking=True) for _ in range(2)]
    for i in range(8):
        out = cupy.full((2, 3, M, N), cupy.nan, dtype=cupy.float32)
        other = cupy.asarray(rand((2, 1, M, K), 100 + i))
        ecgemm.matmul(other, b, out=cupy.empty_like(out), stream=streams[i % 2])
        ecgemm.matmul(a, b, out=out, stream=streams[(i + 1) % 2])
        outs.append(out)
    cupy.cuda.Device().synchronize()
    for out in outs:
        assert cupy.asnumpy(out).tobytes() == expected.tobytes()


@pytest.mark.parametrize("mode", ecgemm.MODES)
def test_numpy_stacks_match_the_device_result_bit_for_bit(cupy, mode):
    a_host, b_host = rand((2, 1, M, K), 7), rand((3, K, N), 8)
    got = ecgemm.matmul(a_host, b_host, mode=mode)
    assert isinstance(got, np.ndarray) and got.shape == (2, 3, M, N)
    on_device = ecgemm.matmul(cupy.asarray(a_host), cupy.asarray(b_host), mode=mode)
    assert cupy.asnumpy(on_device).tobytes() == got.tobytes()
    # out= a strided NumPy view: the frame around it is never written
    frame = np.full((2, 3, M, N + 4), np.nan, np.float32)
    ecgemm.matmul(a_host, b_host, out=frame[..., 2:N + 2], mode=mode)
    assert frame[..., 2:N + 2].tobytes() == np.ascontiguousarray(got).tobytes()
    assert np.isnan(frame[..., :2]).all() and np.isnan(frame[..., N + 2:]).all()


def test_1d_operands_on_the_gpu(torch):
    a_host, b_host = rand((K,), 9), rand((BATCH, K, N), 10)
    got = ecgemm.matmul(torch.from_numpy(a_host).cuda(), torch.from_numpy(b_host).cuda())
    torch.cuda.synchronize()
    assert tuple(got.shape) == (BATCH, N)
    np.testing.assert_allclose(got.cpu().numpy(), np.matmul(a_host.astype(np.float64), b_host),
                               rtol=1e-5, atol=1e-5)


def test_numba_stacks(numba_cuda):
    a_host, b_host = rand((BATCH, M, K), 11), rand((BATCH, K, N), 12)
    got = ecgemm.matmul(numba_cuda.to_device(a_host), numba_cuda.to_device(b_host))
    numba_cuda.synchronize()
    assert got.copy_to_host().tobytes() == ecgemm.matmul(a_host, b_host).tobytes()


@pytest.mark.parametrize("order", ["C", "F"])
def test_fast_path_equals_the_general_path_bit_for_bit(torch, cupy, order):
    a_host, b_host, c_host = rand((M, K), 13), rand((K, N), 14), rand((M, N), 15)
    for package in ("torch", "cupy"):
        if package == "torch":
            a, b = torch.from_numpy(a_host).cuda(), torch.from_numpy(b_host).cuda()
            if order == "F":
                a, b = a.t().contiguous().t(), b.t().contiguous().t()
            like = lambda x: torch.from_numpy(x).cuda()  # noqa: E731
            current, host = torch.cuda.current_stream(), lambda x: x.cpu().numpy()  # noqa: E731
        else:
            a, b = cupy.asarray(a_host, order=order), cupy.asarray(b_host, order=order)
            like = cupy.asarray
            current, host = cupy.cuda.get_current_stream(), cupy.asnumpy
        fast = ecgemm._ecgemm.matmul_fast(a, b, None, 1.0, 0.0, None)
        assert fast is not None, package  # the common case took the Cython corridor
        # An explicit stream (the same one) sends the call down the general path.
        general = ecgemm.matmul(a, b, out=like(np.full((M, N), np.nan, np.float32)),
                                stream=current)
        # out= with alpha and beta: the fast path too, against the general path
        fast_out, general_out = like(c_host), like(c_host)
        assert ecgemm._ecgemm.matmul_fast(a, b, fast_out, -0.5, 2.0, None) is fast_out
        ecgemm.matmul(a, b, out=general_out, alpha=-0.5, beta=2.0, stream=current)
        current.synchronize()
        assert host(fast).tobytes() == host(general).tobytes(), package
        assert host(fast_out).tobytes() == host(general_out).tobytes(), package
        assert residual(host(fast_out), a_host, b_host, -0.5, 2.0, c_host) <= 1e-6


def test_fast_path_declines_what_it_does_not_handle(torch):
    a = torch.ones((4, 4), device="cuda")
    assert ecgemm._ecgemm.matmul_fast(a, a.double(), None, 1.0, 0.0, None) is None
    assert ecgemm._ecgemm.matmul_fast(a, a, None, True, 0.0, None) is None
    assert ecgemm._ecgemm.matmul_fast(a, a, None, 1.0, 0.0, "TF32TF32") is None
    assert ecgemm._ecgemm.matmul_fast(a[:, ::2], a[:2], None, 1.0, 0.0, None) is None
    with pytest.raises(TypeError, match="float64"):
        ecgemm.matmul(a, a.double())
    big = torch.ones((4, 8), device="cuda")
    assert ecgemm._ecgemm.matmul_fast(big[:, :4], a, big[:, 2:6], 1.0, 0.0, None) is None
    with pytest.raises(ValueError, match="overlaps a"):
        ecgemm.matmul(big[:, :4], a, out=big[:, 2:6])
    assert ecgemm.matmul(a, a, mode="TF32TF32").shape == (4, 4)  # the general path takes it


@pytest.mark.parametrize("order", ["C", "F"])
def test_fast_path_takes_equal_stacks_bit_for_bit_with_the_general_path(torch, cupy, order):
    a_host, b_host, c_host = rand((BATCH, M, K), 16), rand((BATCH, K, N), 17), rand((BATCH, M, N), 18)
    for package in ("torch", "cupy"):
        if package == "torch":
            like = lambda x: torch.from_numpy(x).cuda()  # noqa: E731
            current, host = torch.cuda.current_stream(), lambda x: x.cpu().numpy()  # noqa: E731
            a, b = like(a_host), like(b_host)
            if order == "F":  # each item column-major
                a, b = a.transpose(1, 2).contiguous().transpose(1, 2), b.transpose(1, 2).contiguous().transpose(1, 2)
        else:
            like, current, host = cupy.asarray, cupy.cuda.get_current_stream(), cupy.asnumpy
            a, b = cupy.asarray(a_host), cupy.asarray(b_host)
            if order == "F":
                a, b = cupy.ascontiguousarray(a.transpose(0, 2, 1)).transpose(0, 2, 1), \
                    cupy.ascontiguousarray(b.transpose(0, 2, 1)).transpose(0, 2, 1)
        fast = ecgemm._ecgemm.matmul_fast(a, b, None, 1.0, 0.0, None)
        assert fast is not None and tuple(fast.shape) == (BATCH, M, N), package
        general = ecgemm.matmul(a, b, out=like(np.full((BATCH, M, N), np.nan, np.float32)),
                                stream=current)
        fast_out, general_out = like(c_host), like(c_host)
        assert ecgemm._ecgemm.matmul_fast(a, b, fast_out, -0.5, 2.0, None) is fast_out
        ecgemm.matmul(a, b, out=general_out, alpha=-0.5, beta=2.0, stream=current)
        current.synchronize()
        assert host(fast).tobytes() == host(general).tobytes(), package
        assert host(fast_out).tobytes() == host(general_out).tobytes(), package
        for z in range(BATCH):
            assert residual(host(fast_out)[z], a_host[z], b_host[z], -0.5, 2.0, c_host[z]) <= 1e-6


def test_fast_path_leaves_broadcasts_and_overlapping_items_to_the_general_path(torch):
    a = torch.rand((3, 4, 5), device="cuda")
    b = torch.rand((5, 6), device="cuda")
    assert ecgemm._ecgemm.matmul_fast(a, b, None, 1.0, 0.0, None) is None  # 3-D @ 2-D
    assert ecgemm._ecgemm.matmul_fast(a, torch.rand((2, 5, 6), device="cuda"), None, 1.0, 0.0,
                                      None) is None  # unequal batches
    out = torch.empty((4, 6), device="cuda").expand(3, 4, 6)  # items on top of each other
    assert ecgemm._ecgemm.matmul_fast(a, b.expand(3, 5, 6), out, 1.0, 0.0, None) is None
    assert ecgemm.matmul(a, b).shape == (3, 4, 6)  # the general path broadcasts
