"""The Python package on a GPU: NumPy, CuPy, PyTorch and Numba operands, every mode,
memory layouts, out=, alpha/beta, streams, handles, and bit-for-bit agreement with
the C-level call on the same inputs. Skipped (with the reason) without a GPU."""

import ctypes
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

import ecgemm
from _capi import MODES as C_MODES
from _capi import OP, STATUS, load

pytestmark = pytest.mark.gpu

ACCURATE = ("tf32tf32", "halfhalf", "fp32", "auto")
# Relative Frobenius residual vs FP64 for uniform(-1, 1) inputs at k of a few hundred:
# SGEMM-class modes stay near 1e-7; one-pass TF32/FP16 land near 3e-4 (ANCHORS.md).
RESIDUAL_BOUND = {"tf32tf32": 1e-6, "halfhalf": 1e-6, "fp32": 1e-6, "auto": 1e-6, "markidis": 1e-5,
                  "tf32": 2e-3, "fp16": 2e-3}
ONE_PASS_FLOOR = 1e-5  # tf32/fp16 above this show that the mode really reached the kernel
M, K, N = 97, 300, 65  # ragged on purpose


def rand(shape, seed=0, order="C"):
    values = np.random.default_rng(seed).uniform(-1, 1, shape).astype(np.float32)
    return np.asarray(values, order=order)


def residual(c, a, b, alpha=1.0, beta=0.0, c0=None):
    reference = alpha * (np.asarray(a, np.float64) @ np.asarray(b, np.float64))
    if beta:
        reference += beta * np.asarray(c0, np.float64)
    return float(np.linalg.norm(np.asarray(c, np.float64) - reference)
                 / np.linalg.norm(reference))


@pytest.fixture(scope="module")
def cupy():
    cupy = pytest.importorskip("cupy")
    if cupy.cuda.runtime.getDeviceCount() == 0:
        pytest.skip("CuPy sees no GPU")
    return cupy


@pytest.fixture(scope="module")
def torch():
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("PyTorch sees no GPU")
    return torch


@pytest.fixture(scope="module")
def numba_cuda():
    cuda = pytest.importorskip("numba.cuda")
    if not cuda.is_available():
        pytest.skip("Numba sees no GPU")
    return cuda


# --- NumPy ---------------------------------------------------------------------

@pytest.mark.parametrize("mode", ecgemm.MODES)
@pytest.mark.parametrize("order", ["C", "F"])
def test_numpy_every_mode_and_order_meets_its_accuracy(mode, order):
    a, b = rand((M, K), 1, order), rand((K, N), 2, order)
    c = ecgemm.matmul(a, b, mode=mode)
    assert isinstance(c, np.ndarray) and c.shape == (M, N) and c.dtype == np.float32
    error = residual(c, a, b)
    assert error <= RESIDUAL_BOUND[mode]
    if mode in ("tf32", "fp16"):
        assert error >= ONE_PASS_FLOOR


def test_numpy_strided_views_out_and_scalars():
    big_a = rand((2 * M, K + 3), 3)
    a = big_a[::2, 1:K + 1]  # every other row, offset by one float: misaligned base
    b = rand((N, K), 4).T    # Fortran-ordered view
    c0 = rand((M, N), 5)
    frame = np.full((M + 4, N + 6), np.nan, np.float32)
    out = frame[2:M + 2, 3:N + 3]
    out[...] = c0
    result = ecgemm.matmul(a, b, out=out, alpha=-1.5, beta=0.25)
    assert result is out
    assert residual(out, a, b, -1.5, 0.25, c0) <= 1e-6
    border = frame.copy()
    border[2:M + 2, 3:N + 3] = np.nan
    assert np.isnan(border).all()  # nothing around `out` was written


def test_beta_zero_writes_out_without_reading_its_nans():
    a, b = rand((M, K), 6), rand((K, N), 7)
    out = np.full((M, N), np.nan, np.float32)
    ecgemm.matmul(a, b, out=out)
    assert residual(out, a, b) <= 1e-6


@pytest.mark.parametrize("transa,transb", [("N", "N"), ("T", "N"), ("n", "t"), ("C", "T")])
def test_sgemm_transposes_in_place(transa, transb):
    op_a, op_b, c0 = rand((M, K), 8), rand((K, N), 9), rand((M, N), 10)
    a = op_a.T.copy() if transa in "TtCc" else op_a
    b = op_b.T.copy() if transb in "TtCc" else op_b
    c = c0.copy()
    assert ecgemm.sgemm(transa, transb, 2.0, a, b, -1.0, c) is c
    assert residual(c, op_a, op_b, 2.0, -1.0, c0) <= 1e-6


def test_k_zero_scales_c_by_beta():
    c = rand((M, N), 11)
    expected = 0.5 * c
    ecgemm.matmul(np.empty((M, 0), np.float32), np.empty((0, N), np.float32), out=c, beta=0.5)
    np.testing.assert_array_equal(c, expected)


# --- bit-for-bit agreement with the C ABI ----------------------------------------

def c_level_sgemm(cupy, mode, transa, transb, m, n, k, a, lda, b, ldb, c, ldc):
    """ecgemm_sgemm through ctypes on CuPy's pointers, on CuPy's current stream."""
    lib = load()
    handle = ctypes.c_void_p()
    assert lib.ecgemm_create(ctypes.byref(handle)) == STATUS["SUCCESS"]
    try:
        assert lib.ecgemm_set_stream(handle, cupy.cuda.get_current_stream().ptr) == 0
        assert lib.ecgemm_set_mode(handle, C_MODES[mode]) == 0
        alpha, beta = ctypes.c_float(1.0), ctypes.c_float(0.0)
        status = lib.ecgemm_sgemm(handle, OP[transa], OP[transb], m, n, k,
                                  ctypes.addressof(alpha), a.data.ptr, lda, b.data.ptr, ldb,
                                  ctypes.addressof(beta), c.data.ptr, ldc)
        assert status == STATUS["SUCCESS"]
        cupy.cuda.get_current_stream().synchronize()
    finally:
        lib.ecgemm_destroy(handle)


@pytest.mark.parametrize("mode", ecgemm.MODES)
def test_results_equal_the_c_level_call_bit_for_bit(cupy, mode):
    a_host, b_host = rand((M, K), 12), rand((K, N), 13)
    a, b = cupy.asarray(a_host), cupy.asarray(b_host)
    # Row-major C = A B is column-major C^T = B^T A^T: the binding must make exactly this call.
    expected = cupy.full((M, N), cupy.nan, dtype=cupy.float32)
    c_level_sgemm(cupy, mode, "N", "N", N, M, K, b, N, a, K, expected, N)
    got = ecgemm.matmul(a, b, mode=mode)
    assert isinstance(got, cupy.ndarray) and got.device == a.device
    assert cupy.asnumpy(got).tobytes() == cupy.asnumpy(expected).tobytes()
    # NumPy operands take the same path through staging copies: same bits.
    assert ecgemm.matmul(a_host, b_host, mode=mode).tobytes() == cupy.asnumpy(got).tobytes()
    # Fortran order is the problem as written: C = A B with no transposition.
    fa, fb = cupy.asfortranarray(a), cupy.asfortranarray(b)
    expected_f = cupy.full((M, N), cupy.nan, dtype=cupy.float32, order="F")
    c_level_sgemm(cupy, mode, "N", "N", M, N, K, fa, M, fb, K, expected_f, M)
    out = cupy.full((M, N), cupy.nan, dtype=cupy.float32, order="F")
    ecgemm.matmul(fa, fb, out=out, mode=mode)
    assert cupy.asnumpy(out).tobytes() == cupy.asnumpy(expected_f).tobytes()


# --- CuPy, PyTorch, Numba -----------------------------------------------------------

@pytest.mark.parametrize("mode", ecgemm.MODES)
def test_cupy_modes_layouts_and_out(cupy, mode):
    a_host, b_host, c0 = rand((M, K), 14), rand((K, N), 15), rand((M, N), 16)
    big = cupy.full((M, K + 5), cupy.nan, dtype=cupy.float32)
    a = big[:, 3:K + 3]
    a[...] = cupy.asarray(a_host)
    b = cupy.asfortranarray(cupy.asarray(b_host))
    frame = cupy.full((M, N + 2), cupy.nan, dtype=cupy.float32)
    out = frame[:, 1:N + 1]
    out[...] = cupy.asarray(c0)
    ecgemm.matmul(a, b, out=out, alpha=0.5, beta=2.0, mode=mode)
    assert residual(cupy.asnumpy(out), a_host, b_host, 0.5, 2.0, c0) <= RESIDUAL_BOUND[mode]
    assert cupy.isnan(frame[:, 0]).all() and cupy.isnan(frame[:, N + 1]).all()


@pytest.mark.parametrize("mode", ecgemm.MODES)
def test_torch_tensors_in_torch_out(torch, mode):
    a_host, b_host = rand((M, K), 17), rand((K, N), 18)
    a = torch.from_numpy(a_host).cuda()
    b = torch.from_numpy(b_host.T.copy()).cuda().T  # a transposed view
    c = ecgemm.matmul(a, b, mode=mode)
    assert isinstance(c, torch.Tensor) and c.device == a.device and c.dtype == torch.float32
    torch.cuda.current_stream().synchronize()
    assert residual(c.cpu().numpy(), a_host, b_host) <= RESIDUAL_BOUND[mode]


def test_torch_result_equals_the_cupy_result_bit_for_bit(torch, cupy):
    a_host, b_host = rand((M, K), 19), rand((K, N), 20)
    from_torch = ecgemm.matmul(torch.from_numpy(a_host).cuda(), torch.from_numpy(b_host).cuda())
    from_cupy = ecgemm.matmul(cupy.asarray(a_host), cupy.asarray(b_host))
    torch.cuda.synchronize()
    assert from_torch.cpu().numpy().tobytes() == cupy.asnumpy(from_cupy).tobytes()


def test_numba_device_arrays_in_numba_out(numba_cuda):
    a_host, b_host = rand((M, K), 21), rand((K, N), 22)
    c = ecgemm.matmul(numba_cuda.to_device(a_host), numba_cuda.to_device(b_host))
    assert type(c).__module__.split(".")[0] in ("numba", "numba_cuda")
    numba_cuda.synchronize()
    host = c.copy_to_host()
    assert residual(host, a_host, b_host) <= 1e-6
    assert host.tobytes() == ecgemm.matmul(a_host, b_host).tobytes()


# --- streams -------------------------------------------------------------------------

_SPIN_SOURCE = r"""
extern "C" __global__ void spin(long long cycles) {
  const long long start = clock64();
  while (clock64() - start < cycles) {}
}
"""
SPIN_CYCLES = 100_000_000  # ~50 ms at 2 GHz: far longer than enqueueing the GEMM takes


def slow_then_write(cupy, target, values):
    """On the current stream: ~50 ms of spinning, then `target[...] = values`."""
    cupy.RawKernel(_SPIN_SOURCE, "spin")((1,), (1,), (cupy.int64(SPIN_CYCLES),))
    target[...] = values


def test_cupy_current_stream_is_the_default(cupy):
    a_host, b_host = rand((M, K), 23), rand((K, N), 24)
    a = cupy.full((M, K), cupy.nan, dtype=cupy.float32)
    b = cupy.asarray(b_host)
    values = cupy.asarray(a_host)
    cupy.cuda.Device().synchronize()
    stream = cupy.cuda.Stream(non_blocking=True)
    with stream:
        slow_then_write(cupy, a, values)
        c = ecgemm.matmul(a, b)  # must queue behind the write on `stream`
    stream.synchronize()
    assert residual(cupy.asnumpy(c), a_host, b_host) <= 1e-6


class DeclaredStream:
    """`array` behind a __cuda_array_interface__ that names `stream` (None: v2, no stream).

    CuPy names its *current* stream for every array, so this is how one operand
    alone can point at the producer.
    """

    def __init__(self, array, stream):
        interface = dict(array.__cuda_array_interface__, version=2 if stream is None else 3)
        interface.pop("stream", None)
        if stream is not None:
            interface["stream"] = stream
        self.__cuda_array_interface__ = interface
        self.array = array  # keeps the memory alive


def test_explicit_stream_waits_for_the_stream_an_operand_declares(cupy):
    a_host, b_host = rand((M, K), 25), rand((K, N), 26)
    values = cupy.asarray(a_host)
    b = cupy.asarray(b_host)
    results = {}
    for declared in (False, True):  # False is the control: the race must be visible
        a = cupy.full((M, K), cupy.nan, dtype=cupy.float32)
        out = cupy.full((M, N), cupy.nan, dtype=cupy.float32)
        cupy.cuda.Device().synchronize()
        producer = cupy.cuda.Stream(non_blocking=True)
        consumer = cupy.cuda.Stream(non_blocking=True)
        with producer:
            slow_then_write(cupy, a, values)
        # Only a names `producer`; ecgemm computes on `consumer` and must wait for it.
        ecgemm.matmul(DeclaredStream(a, producer.ptr if declared else None),
                      DeclaredStream(b, None), out=DeclaredStream(out, None), stream=consumer)
        consumer.synchronize()
        producer.synchronize()
        results[declared] = cupy.asnumpy(out)
    assert np.isnan(results[False]).any(), "control: without the declared stream the race must show"
    assert residual(results[True], a_host, b_host) <= 1e-6


def test_torch_current_and_explicit_streams(torch):
    a_host, b_host = rand((M, K), 27), rand((K, N), 28)
    b = torch.from_numpy(b_host).cuda()
    values = torch.from_numpy(a_host).cuda()
    for explicit in (False, True):
        a = torch.full((M, K), float("nan"), device="cuda")
        torch.cuda.synchronize()
        stream = torch.cuda.Stream()
        with torch.cuda.stream(stream):
            torch.cuda._sleep(20_000_000)  # ~10 ms of spinning before the write
            a.copy_(values)
            if not explicit:
                c = ecgemm.matmul(a, b)
        if explicit:
            c = ecgemm.matmul(a, b, stream=stream)
        stream.synchronize()
        assert residual(c.cpu().numpy(), a_host, b_host) <= 1e-6, f"explicit={explicit}"


# --- handles -------------------------------------------------------------------------

def test_handle_mode_stream_and_close(cupy):
    a, b = cupy.asarray(rand((M, K), 29)), cupy.asarray(rand((K, N), 30))
    stream = cupy.cuda.Stream(non_blocking=True)
    with ecgemm.Handle(mode="fp16", stream=stream) as handle:
        assert handle.stream == stream.ptr and handle.mode == "fp16" and handle.device == 0
        c = ecgemm.matmul(a, b, handle=handle)
        stream.synchronize()
        expected = ecgemm.matmul(a, b, mode="fp16")
        assert cupy.asnumpy(c).tobytes() == cupy.asnumpy(expected).tobytes()
    assert handle.closed
    with pytest.raises(ValueError, match="closed"):
        ecgemm.matmul(a, b, handle=handle)


def test_default_handles_are_per_thread_and_threads_compute_correctly():
    from ecgemm._api import default_handle

    assert default_handle(0) is default_handle(0)
    a, b = rand((M, K), 31), rand((K, N), 32)
    expected = {mode: ecgemm.matmul(a, b, mode=mode).tobytes() for mode in ecgemm.MODES}
    threads = 4
    together = threading.Barrier(threads)  # four tasks at once: four distinct threads
    handles = []

    def work(_):
        together.wait()
        handles.append(default_handle(0))
        return all(ecgemm.matmul(a, b, mode=mode).tobytes() == expected[mode]
                   for mode in ecgemm.MODES for _ in range(3))

    with ThreadPoolExecutor(max_workers=threads) as pool:
        assert all(pool.map(work, range(threads)))
    assert len({id(handle) for handle in handles}) == threads


def test_handle_on_a_missing_device_is_a_value_error():
    with pytest.raises(ValueError, match="does not exist"):
        ecgemm.Handle(device=ecgemm.device_count())


def test_split_device_matches_split_host():
    x = np.random.default_rng(33).uniform(-1e3, 1e3, 1000).astype(np.float32)
    for method in ("tf32", "half", "markidis"):
        host, device = ecgemm._split_host(method, x), ecgemm._split_device(method, x)
        assert host[0].tobytes() == device[0].tobytes()
        assert host[1].tobytes() == device[1].tobytes()


def test_command_line_check_runs_every_mode():
    run = subprocess.run([sys.executable, "-m", "ecgemm", "--size", "512", "--repeats", "3"],
                         capture_output=True, text=True, timeout=300)
    print(run.stdout, run.stderr)
    assert run.returncode == 0
    for mode in ecgemm.MODES:
        assert f"ecgemm {mode} " in run.stdout


@pytest.mark.parametrize("shapes", [((300, 200), (200, 100)), ((8, 64, 48), (8, 48, 32)),
                                    ((512, 512), (512, 512)), ((1, 4096), (4096, 4096))],
                         ids=["2-D", "batch", "split-K", "GEMV"])
@pytest.mark.parametrize("mode", ["tf32tf32", "halfhalf"])
def test_matmul_captured_in_a_cuda_graph_replays_with_new_inputs(torch, shapes, mode):
    """ecgemm.matmul inside torch.cuda.graph: after one call of that size (the handle's
    workspace is ready) the captured call replays on new values in place."""
    a = torch.empty(shapes[0], device="cuda")
    b = torch.empty(shapes[1], device="cuda")
    stream = torch.cuda.Stream()
    with torch.cuda.stream(stream):
        a.uniform_(-1, 1), b.uniform_(-1, 1)
        ecgemm.matmul(a, b, mode=mode)  # sizes the workspace outside capture
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph, stream=stream):
            c = ecgemm.matmul(a, b, mode=mode)
    for seed in (1, 2):
        generator = torch.Generator(device="cuda").manual_seed(seed)
        a.copy_(torch.rand(a.shape, device="cuda", generator=generator) * 2 - 1)
        b.copy_(torch.rand(b.shape, device="cuda", generator=generator) * 2 - 1)
        graph.replay()
        torch.cuda.synchronize()
        assert residual(c.cpu().numpy(), a.cpu().numpy(), b.cpu().numpy()) < RESIDUAL_BOUND[mode]
