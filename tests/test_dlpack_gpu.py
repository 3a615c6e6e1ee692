"""DLPack operands on a GPU: JAX arrays in, a jax.Array out (equal to the CuPy/torch
result for the same data), objects that speak only DLPack (with the stream handshake
and out=), host DLPack (PyTorch CPU tensors), and dtype messages that name bf16/f16/int."""

import numpy as np
import pytest

import ecgemm
from bench import overhead as bench_overhead
from test_python_gpu import RESIDUAL_BOUND, cupy, rand, residual, torch  # noqa: F401

pytestmark = pytest.mark.gpu
M, K, N = 97, 300, 65


@pytest.fixture(scope="module")
def jax():
    jax = pytest.importorskip("jax")
    pytest.importorskip("cuda.core")
    if not any(d.platform == "gpu" for d in jax.devices()):
        pytest.skip("JAX sees no GPU")
    return jax


class DLPackOnly(bench_overhead.DLPackOnly):
    """A CUDA tensor behind __dlpack__ / __dlpack_device__ only (no CAI), with a dtype and
    an array namespace as array-API libraries have."""

    @property
    def dtype(self):
        return self.tensor.dtype

    def __array_namespace__(self):
        return DLPackOnlyNamespace


class DLPackOnlyNamespace:
    @staticmethod
    def from_dlpack(x):
        import torch
        return DLPackOnly(torch.from_dlpack(x))


@pytest.mark.parametrize("mode", ecgemm.MODES)
def test_jax_arrays_in_jax_array_out_equal_to_torch(jax, torch, mode):
    a_host, b_host = rand((M, K), 1), rand((K, N), 2)
    a, b = jax.numpy.asarray(a_host), jax.numpy.asarray(b_host)
    c = ecgemm.matmul(a, b, mode=mode)
    assert isinstance(c, jax.Array) and c.shape == (M, N) and c.dtype == jax.numpy.float32
    from_torch = ecgemm.matmul(torch.from_numpy(a_host).cuda(), torch.from_numpy(b_host).cuda(),
                               mode=mode)
    torch.cuda.synchronize()
    got = np.asarray(c)
    assert got.tobytes() == from_torch.cpu().numpy().tobytes()
    assert residual(got, a_host, b_host) <= RESIDUAL_BOUND[mode]
    # JAX can compute on the result: it was ready on JAX's stream when JAX read it.
    np.testing.assert_allclose(np.asarray(c * 2.0), 2.0 * got)


def test_jax_follows_its_own_asynchronous_work(jax):
    a_host, b_host = rand((1024, 1024), 3), rand((1024, 1024), 4)
    a = jax.numpy.asarray(a_host)
    for _ in range(20):  # queue work that produces the operand
        a = a * 1.0 + 0.0
    b = jax.numpy.asarray(b_host)
    c = ecgemm.matmul(a, b)
    assert residual(np.asarray(c), a_host, b_host) <= 1e-6


def test_jax_stacks(jax):
    a_host, b_host = rand((4, M, K), 5), rand((K, N), 6)
    c = ecgemm.matmul(jax.numpy.asarray(a_host), jax.numpy.asarray(b_host))
    assert isinstance(c, jax.Array) and c.shape == (4, M, N)
    assert ecgemm.matmul(a_host, b_host).tobytes() == np.asarray(c).tobytes()


def test_dlpack_only_objects_in_and_out(torch):
    pytest.importorskip("cuda.core")
    a_host, b_host = rand((M, K), 7), rand((K, N), 8)
    a, b = torch.from_numpy(a_host).cuda(), torch.from_numpy(b_host).cuda()
    c = ecgemm.matmul(DLPackOnly(a), DLPackOnly(b))
    assert isinstance(c, DLPackOnly)  # through the producer's namespace
    out = torch.full((M, N), float("nan"), device="cuda")
    assert ecgemm.matmul(DLPackOnly(a), DLPackOnly(b), out=DLPackOnly(out)).tensor is out
    torch.cuda.synchronize()
    assert out.cpu().numpy().tobytes() == c.tensor.cpu().numpy().tobytes()
    assert residual(out.cpu().numpy(), a_host, b_host) <= 1e-6


def test_dlpack_producer_stream_is_waited_for(torch):
    pytest.importorskip("cuda.core")
    a_host, b_host = rand((M, K), 9), rand((K, N), 10)
    values, b = torch.from_numpy(a_host).cuda(), torch.from_numpy(b_host).cuda()
    a = torch.full((M, K), float("nan"), device="cuda")
    out = torch.full((M, N), float("nan"), device="cuda")
    torch.cuda.synchronize()
    producer = torch.cuda.Stream()  # non-blocking: no implicit order with the legacy stream
    with torch.cuda.stream(producer):
        torch.cuda._sleep(20_000_000)
        a.copy_(values)
        # ecgemm computes on the legacy stream; torch's __dlpack__(stream=1) orders it
        ecgemm.matmul(DLPackOnly(a), DLPackOnly(b), out=DLPackOnly(out))
    torch.cuda.synchronize()
    assert residual(out.cpu().numpy(), a_host, b_host) <= 1e-6


def test_torch_cpu_tensors_are_host_dlpack_operands(torch):
    a_host, b_host = rand((3, M, K), 11), rand((K, N), 12)
    c = ecgemm.matmul(torch.from_numpy(a_host), torch.from_numpy(b_host))
    assert isinstance(c, torch.Tensor) and c.device.type == "cpu"
    assert c.numpy().tobytes() == ecgemm.matmul(a_host, b_host).tobytes()


@pytest.mark.parametrize("dtype", ["bfloat16", "float16", "int32"])
def test_torch_dtype_messages_name_the_real_dtype(torch, dtype):
    a = torch.ones((4, 4), device="cuda", dtype=getattr(torch, dtype))
    b = torch.ones((4, 4), device="cuda")
    with pytest.raises(TypeError, match=rf"dtype {dtype}\b.*to\(torch\.float32\)"):
        ecgemm.matmul(a, b)


def test_jax_bfloat16_message(jax):
    a = jax.numpy.ones((4, 4), dtype=jax.numpy.bfloat16)
    with pytest.raises(TypeError, match=r"dtype bfloat16.*astype\(jax\.numpy\.float32\)"):
        ecgemm.matmul(a, jax.numpy.ones((4, 4)))
