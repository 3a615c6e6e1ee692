"""CPU tests of N-D ``matmul`` (NumPy broadcasting), DLPack operands and dtype messages.

The batched plans are checked by emulating the column-major batched ABI on NumPy
memory, item by item; DLPack handling with fake producers. No GPU needed."""

import ctypes

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ecgemm
from ecgemm._layout import as_stack, matmul_shapes, plan_batch
from ecgemm._operands import as_operand

FAKE_PTR = 0x7F00_0000_0000


def rand(shape, seed=0):
    return np.random.default_rng(seed).uniform(-1, 1, shape).astype(np.float32)


# --- emulating the batched ABI ---------------------------------------------------

def _matrix(address, rows, cols, ld):
    """The column-major rows x cols matrix at `address` (our own NumPy memory)."""
    if rows == 0 or cols == 0:
        return np.empty((rows, cols), np.float32)
    buffer = (ctypes.c_float * ((cols - 1) * ld + rows)).from_address(address)
    return np.lib.stride_tricks.as_strided(np.ctypeslib.as_array(buffer), (rows, cols),
                                           (4, 4 * ld))


def emulate_batch(plan, alpha=1.0, beta=0.0):
    """What ecgemm_sgemm_(strided_)batched does with `plan`, in float64."""
    gemm = plan.gemm
    for item in range(plan.count):
        if plan.strides is not None:
            offsets = [item * stride for stride in plan.strides]
        else:
            offsets = plan.offsets[:, item]
        a, b, c = (_matrix(s.operand.ptr + 4 * int(off), s.rows, s.cols, s.ld)
                   for s, off in zip((gemm.a, gemm.b, gemm.c), offsets))
        op_a = a if gemm.transa == 0 else a.T
        op_b = b if gemm.transb == 0 else b.T
        product = op_a.astype(np.float64) @ op_b.astype(np.float64)
        c[...] = alpha * product + (beta * c if beta else 0.0)


def emulated_matmul(a, b, out=None, alpha=1.0, beta=0.0):
    """ecgemm.matmul's host planning, executed by the emulator; returns (result, plan)."""
    A, B = as_operand(a, "a"), as_operand(b, "b")
    shapes = matmul_shapes(A, B)
    if out is None:
        out = np.full(shapes.result_shape, np.nan, np.float32)
    plan = plan_batch(shapes.a, shapes.b, as_stack(as_operand(out, "out"), shapes))
    emulate_batch(plan, alpha, beta)
    return out, plan


def view(array, kind, seed):
    """`array`'s values laid out as `kind` (a fresh buffer; values unchanged)."""
    if kind == "C":
        return array.copy()
    if kind == "F":  # each matrix column-major, batch dims outermost
        return np.asfortranarray(array.T).T if array.ndim <= 2 else \
            np.swapaxes(np.ascontiguousarray(np.swapaxes(array, -1, -2)), -1, -2)
    if kind == "reversed batch" and array.ndim >= 3:  # negative batch stride
        flipped = array[::-1].copy()
        return flipped[::-1]
    if kind == "interleaved" and array.ndim >= 3:  # items interleaved row by row
        moved = np.ascontiguousarray(np.moveaxis(array, 0, -2))
        return np.moveaxis(moved, -2, 0)
    return array.copy()


LAYOUTS = ["C", "F", "reversed batch", "interleaved"]

batch_dims = st.lists(st.sampled_from([1, 2, 3]), min_size=0, max_size=3)


@settings(max_examples=200, deadline=None)
@given(batch_a=batch_dims, batch_b=batch_dims, m=st.integers(1, 4), n=st.integers(1, 4),
       k=st.integers(0, 4), one_d=st.sampled_from(["", "a", "b", "ab"]),
       layouts=st.tuples(st.sampled_from(LAYOUTS), st.sampled_from(LAYOUTS)),
       seed=st.integers(0, 2**16))
def test_broadcasting_shapes_and_values_follow_numpy(batch_a, batch_b, m, n, k, one_d,
                                                     layouts, seed):
    # Batch shapes that broadcast: where both have a dim, make one of them 1 or equal.
    common = min(len(batch_a), len(batch_b))
    for i in range(1, common + 1):
        if batch_a[-i] != batch_b[-i] and 1 not in (batch_a[-i], batch_b[-i]):
            batch_b[-i] = batch_a[-i]
    shape_a = (k,) if "a" in one_d else tuple(batch_a) + (m, k)
    shape_b = (k,) if "b" in one_d else tuple(batch_b) + (k, n)
    a0, b0 = rand(shape_a, seed), rand(shape_b, seed + 1)
    a, b = view(a0, layouts[0], seed), view(b0, layouts[1], seed)
    expected = np.matmul(a0.astype(np.float64), b0.astype(np.float64))
    got, _ = emulated_matmul(a, b)
    assert got.shape == expected.shape
    np.testing.assert_allclose(got, expected, rtol=1e-6, atol=1e-6)


def test_stacks_that_reduce_to_one_stride_use_the_strided_form():
    a, b = rand((6, 3, 4)), rand((6, 4, 5))
    _, plan = emulated_matmul(a, b)
    # C is row-major, so the ABI computes C^T = B^T A^T: its a is our b.
    assert plan.count == 6 and plan.strides == (20, 12, 15) and plan.offsets is None
    _, plan = emulated_matmul(rand((3, 4)), b)  # a 2-D operand broadcast: stride 0
    assert plan.strides == (20, 0, 15)
    _, plan = emulated_matmul(rand((2, 3, 3, 4)), rand((2, 3, 4, 5)))  # batch dims fold
    assert plan.count == 6 and plan.strides is not None


def test_stacks_without_one_stride_use_pointer_arrays():
    a = rand((2, 1, 3, 4))
    b = rand((1, 3, 4, 5))  # broadcasting on different axes: offsets 0,0,0,12,12,12...
    out, plan = emulated_matmul(a, b)
    assert plan.strides is None and plan.offsets.shape == (3, 6)
    np.testing.assert_allclose(out, np.matmul(a.astype(np.float64), b), rtol=1e-6)
    _, plan = emulated_matmul(view(rand((4, 3, 4)), "reversed batch", 0), rand((4, 4, 5)))
    assert plan.strides is None  # a negative stride is not one the ABI takes


def test_1d_operands_drop_their_dimension():
    assert emulated_matmul(rand(4), rand((4, 3)))[0].shape == (3,)
    assert emulated_matmul(rand((2, 3, 4)), rand(4))[0].shape == (2, 3)
    assert emulated_matmul(rand(4), rand(4))[0].shape == ()


def test_out_of_the_broadcast_shape_with_alpha_and_beta():
    a, b = rand((5, 2, 3)), rand((3, 4))
    c0 = rand((5, 2, 4), 9)
    frame = np.full((5, 2, 7), np.nan, np.float32)
    out = frame[:, :, 1:5]
    out[...] = c0
    emulated_matmul(a, b, out, alpha=2.0, beta=-0.5)
    np.testing.assert_allclose(out, 2.0 * np.matmul(a.astype(np.float64), b) - 0.5 * c0,
                               rtol=1e-6, atol=1e-6)
    assert np.isnan(frame[:, :, 0]).all() and np.isnan(frame[:, :, 5:]).all()


# --- errors -------------------------------------------------------------------------

@pytest.mark.parametrize("a,b,pattern", [
    ((2, 3, 4), (3, 4, 5), "do not broadcast"),
    ((2, 3, 4), (2, 5, 6), r"inner dimensions 4 and 5"),
    ((3, 4), (5,), r"\(3, 4\).*\(5,\)"),
])
def test_shape_errors_name_both_shapes(a, b, pattern):
    with pytest.raises(ValueError, match=pattern):
        ecgemm.matmul(np.ones(a, np.float32), np.ones(b, np.float32))


def test_scalars_are_refused():
    with pytest.raises(ValueError, match="0-D"):
        ecgemm.matmul(np.ones((), np.float32), rand((2, 2)))


def test_out_must_have_the_broadcast_shape():
    out = np.full((2, 3, 6), np.nan, np.float32)
    with pytest.raises(ValueError, match=r"\(2, 3, 6\).*\(2, 3, 5\)"):
        ecgemm.matmul(rand((2, 3, 4)), rand((4, 5)), out=out)
    assert np.isnan(out).all()


def test_out_whose_items_share_memory_is_refused():
    out = FakeDeviceArray((4, 3, 5), strides=(0, 20, 4), ptr=FAKE_PTR + 2**20)
    with pytest.raises(ValueError, match="may share memory"):
        ecgemm.matmul(FakeDeviceArray((4, 3, 2)), FakeDeviceArray((2, 5), ptr=FAKE_PTR + 4096),
                      out=out)


def test_sgemm_stays_2d():
    with pytest.raises(ValueError, match="2-D.*matmul takes stacks"):
        ecgemm.sgemm("N", "N", 1.0, rand((2, 3, 4)), rand((4, 5)), 0.0,
                     np.zeros((3, 5), np.float32))


def test_empty_batches_need_no_gpu():
    result = ecgemm.matmul(rand((0, 3, 4)), rand((4, 2)))
    assert result.shape == (0, 3, 2)


# --- fake CUDA Array Interface stacks ---------------------------------------------------

class FakeDeviceArray:
    def __init__(self, shape, typestr="<f4", strides=None, ptr=FAKE_PTR, dtype=None):
        self.__cuda_array_interface__ = {"shape": tuple(shape), "typestr": typestr,
                                         "strides": strides, "data": (ptr, False),
                                         "version": 3}
        if dtype is not None:
            self.dtype = dtype


class TorchDtype:
    """Prints as torch's dtypes do."""

    def __init__(self, name):
        self.name = name

    def __str__(self):
        return f"torch.{self.name}"


def test_fake_cai_stack_is_described_with_c_strides():
    op = as_operand(FakeDeviceArray((2, 3, 4)), "a")
    assert op.shape == (2, 3, 4) and op.strides == (12, 4, 1)


def test_bfloat16_is_named_by_its_own_dtype_not_void16():
    FakeTorch = type("Tensor", (FakeDeviceArray,), {"__module__": "torch"})
    tensor = FakeTorch((3, 4), typestr="<V2", dtype=TorchDtype("bfloat16"))
    with pytest.raises(TypeError, match=r"dtype bfloat16.*\.to\(torch\.float32\)"):
        ecgemm.matmul(tensor, FakeTorch((4, 2), ptr=FAKE_PTR + 4096))


@pytest.mark.parametrize("typestr,name", [("<f2", "float16"), ("<i4", "int32"),
                                          ("<f8", "float64")])
def test_other_dtypes_keep_their_names(typestr, name):
    with pytest.raises(TypeError, match=f"dtype {name}"):
        ecgemm.matmul(FakeDeviceArray((3, 4), typestr=typestr),
                      FakeDeviceArray((4, 2), ptr=FAKE_PTR + 4096))


# --- DLPack ---------------------------------------------------------------------------

class HostDLPack:
    """A host array that speaks only DLPack (like a CPU tensor of an array-API library)."""

    def __init__(self, array):
        self.array = array

    def __dlpack__(self, stream=None, max_version=None, dl_device=None, copy=None):
        return self.array.__dlpack__()

    def __dlpack_device__(self):
        return (1, 0)

    @property
    def shape(self):
        return self.array.shape

    @property
    def dtype(self):
        return self.array.dtype

    def __array_namespace__(self):
        return HostNamespace


class HostNamespace:
    @staticmethod
    def from_dlpack(x):
        return HostDLPack(np.from_dlpack(x))


def test_host_dlpack_operands_behave_like_numpy():
    a = HostDLPack(rand((0, 4)))
    result = ecgemm.matmul(a, HostDLPack(rand((4, 3))))
    assert isinstance(result, HostDLPack) and result.shape == (0, 3)  # the caller's package
    op = as_operand(HostDLPack(rand((2, 3, 4))), "a")
    assert not op.on_device and op.shape == (2, 3, 4) and op.strides == (12, 4, 1)


def test_host_dlpack_dtype_errors_name_the_dtype():
    with pytest.raises(TypeError, match="float16"):
        ecgemm.matmul(HostDLPack(np.ones((2, 2), np.float16)), HostDLPack(rand((2, 2))))


def test_mixing_host_dlpack_and_device_operands_is_refused():
    with pytest.raises(TypeError, match="same side"):
        ecgemm.matmul(HostDLPack(rand((3, 4))), FakeDeviceArray((4, 2)))


class DeviceDLPack:
    """Claims CUDA memory; its capsule is a host array's (never read by the checks)."""

    def __init__(self, array, dtype=None):
        self.array, self.streams = array, []
        if dtype is not None:
            self.dtype = dtype

    def __dlpack__(self, stream=None, max_version=None, dl_device=None, copy=None):
        self.streams.append(stream)
        return self.array.__dlpack__()

    def __dlpack_device__(self):
        return (2, 0)


def test_device_dlpack_dtype_is_refused_before_the_data_is_read():
    operand = DeviceDLPack(np.ones((2, 2), np.float16), dtype=TorchDtype("bfloat16"))
    with pytest.raises(TypeError, match="bfloat16"):
        ecgemm.matmul(operand, DeviceDLPack(rand((2, 2))))
    assert operand.streams == []


def test_device_dlpack_is_ordered_before_the_consumer_stream():
    pytest.importorskip("cuda.core")
    a = DeviceDLPack(rand((2, 3, 4)))
    op = as_operand(a, "a", consumer_stream=0x1234)
    assert a.streams == [0x1234] and op.on_device and op.device == 0
    assert op.shape == (2, 3, 4) and op.strides == (12, 4, 1)
    as_operand(a, "a", consumer_stream=0)  # the legacy default stream is 1 in the protocol
    assert a.streams[-1] == 1
    with pytest.raises(ValueError, match="inner dimensions"):
        ecgemm.matmul(DeviceDLPack(rand((2, 3, 4))), DeviceDLPack(rand((5, 2))))


def test_other_dlpack_devices_are_refused():
    other = DeviceDLPack(rand((2, 2)))
    other.__dlpack_device__ = lambda: (4, 0)  # OpenCL
    type(other)  # instance attribute: the protocol check looks at the type
    Cls = type("OpenCLArray", (DeviceDLPack,), {"__dlpack_device__": lambda self: (4, 0)})
    with pytest.raises(TypeError, match="device type 4"):
        ecgemm.matmul(Cls(rand((2, 2))), Cls(rand((2, 2))))
