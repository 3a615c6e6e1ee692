"""CPU tests of the Python package: argument checks, operand adaptation, the
row-major -> column-major mapping, stream resolution and errors. No GPU needed:
every check under test runs before the GPU is touched."""

import ctypes
import os
import pickle
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ecgemm
from ecgemm import _ecgemm
from ecgemm._layout import OP_N, OP_T, plan_gemm
from ecgemm._operands import as_operand, check_no_overlap
from ecgemm._streams import producer_streams, stream_handle

HAS_GPU = ecgemm.device_count() > 0
FAKE_PTR = 0x7F00_0000_0000  # never dereferenced: the checks under test fail first


class FakeDeviceArray:
    """Just enough __cuda_array_interface__ for the adapters."""

    def __init__(self, shape, typestr="<f4", strides=None, ptr=FAKE_PTR, readonly=False,
                 mask=None, stream=None, version=3):
        self.__cuda_array_interface__ = {
            "shape": tuple(shape), "typestr": typestr, "strides": strides,
            "data": (ptr, readonly), "version": version, "mask": mask,
        }
        if stream is not None:
            self.__cuda_array_interface__["stream"] = stream


class FakeTorchTensor(FakeDeviceArray):
    pass


FakeTorchTensor.__module__ = "torch"


def poisoned(shape, order="C"):
    return np.full(shape, np.nan, dtype=np.float32, order=order)


def rand(shape, seed=0, order="C"):
    values = np.random.default_rng(seed).uniform(-1, 1, shape).astype(np.float32)
    return np.asarray(values, order=order)


# --- import and public surface ------------------------------------------------

def test_import_without_gpu_exposes_the_public_api():
    assert ecgemm.MODES == ("tf32tf32", "halfhalf", "fp32", "tf32", "fp16", "markidis", "auto")
    assert set(ecgemm.__all__) >= {"matmul", "sgemm", "Handle", "MODES", "EcgemmError"}
    assert ecgemm.__version__.count(".") == 2
    assert issubclass(ecgemm.EcgemmError, RuntimeError)
    assert isinstance(ecgemm.device_count(), int)


def test_every_mode_name_maps_to_a_distinct_c_enumerator():
    codes = _ecgemm._MODE_CODES
    assert tuple(codes) == ecgemm.MODES
    assert sorted(codes.values()) == list(range(len(ecgemm.MODES)))  # ecgemmMode_t order


def test_stub_declares_every_public_function_of_the_extension():
    stub = open(os.path.join(os.path.dirname(_ecgemm.__file__), "_ecgemm.pyi")).read()
    public = [name for name in dir(_ecgemm)
              if callable(getattr(_ecgemm, name)) and not name.startswith("_")
              and getattr(getattr(_ecgemm, name), "__module__", "") == "ecgemm._ecgemm"]
    public += ["_split_host", "_split_device", "_validate"]  # the numerics tests use them
    assert "gemm_host" in public
    missing = [name for name in public
               if f"def {name}(" not in stub and f"class {name}" not in stub]
    assert not missing


@pytest.mark.skipif(HAS_GPU, reason="checks the behaviour without a GPU")
class TestWithoutGpu:
    def test_first_gpu_use_raises_no_device_and_leaves_out_untouched(self):
        out = poisoned((3, 2))
        with pytest.raises(ecgemm.EcgemmError) as info:
            ecgemm.matmul(rand((3, 4)), rand((4, 2)), out=out)
        assert info.value.status == "ECGEMM_STATUS_NO_DEVICE"
        assert "GPU" in str(info.value)
        assert np.isnan(out).all()

    def test_handle_creation_raises_no_device(self):
        with pytest.raises(ecgemm.EcgemmError, match="NO_DEVICE"):
            ecgemm.Handle()

    def test_command_line_check_exits_nonzero_with_a_message(self):
        run = subprocess.run([sys.executable, "-m", "ecgemm"], capture_output=True, text=True,
                             timeout=120)
        assert run.returncode == 1
        assert "no CUDA GPU" in run.stderr


# --- bad input: the error type, a useful message, and out left alone ---------

@pytest.mark.parametrize("dtype", [np.float64, np.int32, np.complex64, np.float16])
def test_wrong_numpy_dtype_is_a_type_error_with_a_conversion_hint(dtype):
    a = np.ones((3, 4), dtype=dtype)
    with pytest.raises(TypeError) as info:
        ecgemm.matmul(a, rand((4, 2)))
    assert np.dtype(dtype).name in str(info.value)
    assert "a.astype(numpy.float32)" in str(info.value)


def test_wrong_device_dtype_names_the_dtype_and_the_owning_package():
    with pytest.raises(TypeError, match=r"float64.*b\.to\(torch\.float32\)"):
        ecgemm.matmul(FakeTorchTensor((3, 4)), FakeTorchTensor((4, 2), typestr="<f8"))


def test_big_endian_float32_is_refused_not_misread():
    with pytest.raises(TypeError, match=">f4"):
        ecgemm.matmul(rand((2, 2)), rand((2, 2)).astype(">f4"))


def test_non_array_operand_is_a_type_error():
    with pytest.raises(TypeError, match="NumPy array or a GPU array"):
        ecgemm.matmul([[1.0, 2.0]], rand((2, 2)))


def test_shape_mismatch_names_both_shapes():
    with pytest.raises(ValueError, match=r"\(3, 4\).*\(5, 2\)"):
        ecgemm.matmul(rand((3, 4)), rand((5, 2)))


@pytest.mark.parametrize("shape", [(4,), (2, 3, 4)])
def test_sgemm_operands_must_be_2d(shape):
    # matmul takes 1-D and N-D operands (issue 10, tests/test_matmul_nd.py); sgemm stays BLAS.
    with pytest.raises(ValueError, match="2-D"):
        ecgemm.sgemm("N", "N", 1.0, np.ones(shape, np.float32), rand((4, 2)), 0.0,
                     poisoned((2, 2)))


def test_masked_operands_are_refused():
    with pytest.raises(ValueError, match="mask"):
        ecgemm.matmul(FakeDeviceArray((3, 4), mask=object()), FakeDeviceArray((4, 2)))
    with pytest.raises(ValueError, match="mask"):
        ecgemm.matmul(np.ma.masked_array(rand((3, 4))), rand((4, 2)))


def test_mixed_host_and_device_operands_are_refused():
    with pytest.raises(TypeError, match="same side"):
        ecgemm.matmul(rand((3, 4)), FakeDeviceArray((4, 2)))
    with pytest.raises(TypeError, match="same side"):
        ecgemm.matmul(FakeDeviceArray((3, 4)), FakeDeviceArray((4, 2)), out=poisoned((3, 2)))


def test_interface_details_that_would_misread_memory_are_refused():
    with pytest.raises(ValueError, match="stream 0"):
        as_operand(FakeDeviceArray((2, 2), stream=0), "a")
    with pytest.raises(ValueError, match="whole float32 elements"):
        as_operand(FakeDeviceArray((2, 2), strides=(8, 2)), "a")
    with pytest.raises(ValueError, match="aligned"):
        as_operand(FakeDeviceArray((2, 2), ptr=FAKE_PTR + 2), "a")


def _out_errors():
    a, b = rand((3, 4)), rand((4, 2))
    read_only = poisoned((3, 2))
    read_only.setflags(write=False)
    big = poisoned((3, 8))
    return [
        ("wrong shape", dict(a=a, b=b, out=poisoned((2, 3))), ValueError, r"\(2, 3\).*\(3, 2\)"),
        ("read-only", dict(a=a, b=b, out=read_only), ValueError, "read-only"),
        ("aliases a", dict(a=big[:, :4], b=b, out=big[:, 2:4]), ValueError, "overlaps a"),
        ("no unit stride", dict(a=a, b=b, out=poisoned((6, 4))[::2, ::2]), ValueError,
         "unit stride"),
        ("float64 out", dict(a=a, b=b, out=np.full((3, 2), np.nan)), TypeError, "float64"),
        ("bad mode", dict(a=a, b=b, out=poisoned((3, 2)), mode="bf16"), ValueError,
         "ecgemm.MODES"),
        ("mode not a str", dict(a=a, b=b, out=poisoned((3, 2)), mode=3), TypeError, "mode"),
        ("bad stream", dict(a=a, b=b, out=poisoned((3, 2)), stream="s"), TypeError, "stream"),
        ("bad handle", dict(a=a, b=b, out=poisoned((3, 2)), handle=1), TypeError, "Handle"),
        ("complex alpha", dict(a=a, b=b, out=poisoned((3, 2)), alpha=1j), TypeError, "alpha"),
    ]


@pytest.mark.parametrize("case", _out_errors(), ids=lambda case: case[0])
def test_errors_leave_out_untouched(case):
    _, kwargs, error, pattern = case
    out = kwargs["out"]
    before = out.tobytes()
    with pytest.raises(error, match=pattern):
        ecgemm.matmul(**kwargs)
    assert out.tobytes() == before


def test_read_only_device_out_is_refused():
    with pytest.raises(ValueError, match="read-only"):
        ecgemm.matmul(FakeDeviceArray((3, 4)), FakeDeviceArray((4, 2), ptr=FAKE_PTR + 4096),
                      out=FakeDeviceArray((3, 2), ptr=FAKE_PTR + 8192, readonly=True))


def test_device_out_overlapping_an_input_is_refused():
    with pytest.raises(ValueError, match="overlaps b"):
        ecgemm.matmul(FakeDeviceArray((3, 4)), FakeDeviceArray((4, 2), ptr=FAKE_PTR + 4096),
                      out=FakeDeviceArray((3, 2), ptr=FAKE_PTR + 4096 + 16))


def test_beta_without_out_is_refused():
    with pytest.raises(ValueError, match="needs out"):
        ecgemm.matmul(rand((3, 4)), rand((4, 2)), beta=1.0)


@pytest.mark.parametrize("transa", ["X", "", None, 0, "NT"])
def test_sgemm_rejects_bad_transpose_flags_and_leaves_c_untouched(transa):
    c = poisoned((3, 2))
    with pytest.raises(ValueError, match="transa must be 'N', 'T' or 'C'"):
        ecgemm.sgemm(transa, "N", 1.0, rand((3, 4)), rand((4, 2)), 0.0, c)
    assert np.isnan(c).all()


def test_sgemm_shape_errors_speak_of_op_a_and_op_b():
    with pytest.raises(ValueError, match=r"op\(a\) has shape \(4, 3\).*op\(b\) has shape \(4, 2\)"):
        ecgemm.sgemm("T", "n", 1.0, rand((3, 4)), rand((4, 2)), 0.0, poisoned((4, 2)))


def test_layout_errors_name_the_operand_as_passed():
    a = rand((8, 8))[::2, ::2]
    with pytest.raises(ValueError, match=r"a has shape \(4, 4\) and strides \(64, 8\)"):
        ecgemm.sgemm("T", "N", 1.0, a, rand((4, 2)), 0.0, poisoned((4, 2)))


@pytest.mark.parametrize("view", [
    lambda x: x[::-1], lambda x: x[:, ::-1],
    lambda x: np.broadcast_to(x[:1], x.shape), lambda x: x[::2, ::3]])
def test_layouts_without_a_usable_unit_stride_are_refused(view):
    a = view(rand((6, 6)))
    with pytest.raises(ValueError, match="unit stride"):
        ecgemm.matmul(a, rand((a.shape[1], 2)))


def test_sizes_beyond_the_32_bit_abi_are_refused():
    a = FakeDeviceArray((2**31, 1), strides=(4, 4))
    b = FakeDeviceArray((1, 1), ptr=FAKE_PTR - 4096)
    c = FakeDeviceArray((2**31, 1), ptr=FAKE_PTR + 2**34)
    with pytest.raises(ValueError, match="32-bit"):
        plan_gemm(as_operand(a, "a"), as_operand(b, "b"), as_operand(c, "c"))


# --- the transpose identity, checked by emulating the column-major ABI ---------

def emulate_abi(plan, alpha, beta):
    """What ecgemm_sgemm does with `plan` on NumPy memory (in float64, for checking)."""
    def stored(s):
        return np.lib.stride_tricks.as_strided(s.operand.owner, shape=(s.rows, s.cols),
                                               strides=(4, 4 * s.ld))
    a, b, c = stored(plan.a), stored(plan.b), stored(plan.c)
    op_a = a if plan.transa == OP_N else a.T
    op_b = b if plan.transb == OP_N else b.T
    assert op_a.shape == (plan.m, plan.k) and op_b.shape == (plan.k, plan.n)
    product = op_a.astype(np.float64) @ op_b.astype(np.float64)
    c[...] = alpha * product + (beta * c if beta else 0.0)


def layout(array, kind):
    """`array`'s values in memory laid out as `kind` (always one unit stride)."""
    rows, cols = array.shape
    if kind in ("C", "F"):
        return np.array(array, order=kind)  # always a copy: callers compare with the original
    if kind == "padded rows":  # row-major inside a wider buffer
        big = poisoned((rows, cols + 3))
        big[:, 1:cols + 1] = array
        return big[:, 1:cols + 1]
    if kind == "padded cols":  # column-major inside a taller buffer
        big = poisoned((rows + 5, cols), order="F")
        big[2:rows + 2] = array
        return big[2:rows + 2]
    if kind == "every other row":
        big = poisoned((2 * rows, cols))
        big[::2] = array
        return big[::2]
    raise AssertionError(kind)


LAYOUTS = ["C", "F", "padded rows", "padded cols", "every other row"]


def test_c_ordered_operands_map_to_the_transposed_problem_without_copies():
    a, b, c = rand((5, 3)), rand((3, 4)), poisoned((5, 4))
    plan = plan_gemm(as_operand(a, "a"), as_operand(b, "b"), as_operand(c, "c"))
    # C^T (4 x 5, ld 4) = B^T (4 x 3, ld 4) . A^T (3 x 5, ld 3), all read as stored
    assert (plan.transa, plan.transb, plan.m, plan.n, plan.k) == (OP_N, OP_N, 4, 5, 3)
    assert (plan.a.operand.ptr, plan.a.ld) == (b.ctypes.data, 4)
    assert (plan.b.operand.ptr, plan.b.ld) == (a.ctypes.data, 3)
    assert (plan.c.operand.ptr, plan.c.ld) == (c.ctypes.data, 4)


def test_fortran_ordered_operands_map_to_the_problem_as_written():
    a, b, c = rand((5, 3), order="F"), rand((3, 4), order="F"), poisoned((5, 4), order="F")
    plan = plan_gemm(as_operand(a, "a"), as_operand(b, "b"), as_operand(c, "c"))
    assert (plan.transa, plan.transb, plan.m, plan.n, plan.k) == (OP_N, OP_N, 5, 4, 3)
    assert (plan.a.ld, plan.b.ld, plan.c.ld) == (5, 3, 5)


def test_mixed_orders_become_transpose_flags():
    a, b, c = rand((5, 3)), rand((3, 4), order="F"), poisoned((5, 4), order="F")
    plan = plan_gemm(as_operand(a, "a"), as_operand(b, "b"), as_operand(c, "c"))
    assert (plan.transa, plan.transb, plan.a.ld) == (OP_T, OP_N, 3)


@settings(max_examples=300, deadline=None)
@given(m=st.integers(1, 6), n=st.integers(1, 6), k=st.integers(0, 6),
       layouts=st.tuples(*[st.sampled_from(LAYOUTS)] * 3),
       transposes=st.tuples(st.booleans(), st.booleans()),
       beta=st.sampled_from([0.0, 0.5]), seed=st.integers(0, 2**16))
def test_every_layout_and_transpose_computes_the_product(m, n, k, layouts, transposes, beta,
                                                         seed):
    op_a, op_b = rand((m, k), seed), rand((k, n), seed + 1)
    c0 = rand((m, n), seed + 2)
    a = layout(op_a.T if transposes[0] else op_a, layouts[0])
    b = layout(op_b.T if transposes[1] else op_b, layouts[1])
    c = layout(c0, layouts[2])
    A = as_operand(a, "a").transposed() if transposes[0] else as_operand(a, "a")
    B = as_operand(b, "b").transposed() if transposes[1] else as_operand(b, "b")
    emulate_abi(plan_gemm(A, B, as_operand(c, "c")), 2.0, beta)
    expected = 2.0 * (op_a.astype(np.float64) @ op_b) + beta * c0
    np.testing.assert_allclose(c, expected, rtol=1e-6, atol=1e-6)


def test_padding_around_a_strided_output_is_never_addressed():
    big = poisoned((4, 9))
    c = big[:, 2:5]
    plan = plan_gemm(as_operand(rand((4, 3)), "a"), as_operand(rand((3, 3)), "b"),
                     as_operand(c, "c"))
    emulate_abi(plan, 1.0, 0.0)
    assert not np.isnan(c).any()
    assert np.isnan(big[:, :2]).all() and np.isnan(big[:, 5:]).all()


def test_empty_operands_have_valid_leading_dimensions():
    a, b, c = np.empty((3, 0), np.float32), np.empty((0, 2), np.float32), poisoned((3, 2))
    plan = plan_gemm(as_operand(a, "a"), as_operand(b, "b"), as_operand(c, "c"))
    assert plan.k == 0
    assert min(plan.a.ld, plan.b.ld, plan.c.ld) >= 1


def test_empty_results_need_no_gpu():
    result = ecgemm.matmul(rand((0, 4)), rand((4, 3)))
    assert result.shape == (0, 3) and result.dtype == np.float32


# --- overlap detection ---------------------------------------------------------

def test_overlap_is_detected_only_when_address_ranges_meet():
    big = poisoned((6, 4))
    top, bottom = as_operand(big[:3], "a"), as_operand(big[3:], "out")
    check_no_overlap(bottom, top)  # adjacent rows: disjoint
    with pytest.raises(ValueError, match="overlaps a"):
        check_no_overlap(as_operand(big[2:5], "out"), top)


# --- streams -------------------------------------------------------------------

class CupyLikeStream:
    ptr = 0x1234


class TorchLikeStream:
    cuda_stream = 0x5678


class ProtocolStream:
    def __cuda_stream__(self):
        return (0, 0x9ABC)


class NumbaLikeStream:
    handle = ctypes.c_void_p(0xDEF0)


@pytest.mark.parametrize("stream,expected", [
    (0, 0), (7, 7), (np.uint64(9), 9), (CupyLikeStream(), 0x1234),
    (TorchLikeStream(), 0x5678), (ProtocolStream(), 0x9ABC), (NumbaLikeStream(), 0xDEF0)])
def test_stream_objects_resolve_to_their_handles(stream, expected):
    assert stream_handle(stream) == expected


@pytest.mark.parametrize("stream,error", [(True, TypeError), (-1, ValueError),
                                          (object(), TypeError), (1.5, TypeError)])
def test_bad_streams_are_refused(stream, error):
    with pytest.raises(error):
        stream_handle(stream)


def test_producer_streams_skip_the_call_stream_and_duplicates():
    assert producer_streams([None, 5, 5, 7], 5) == [7]
    assert producer_streams([1, 2], 0) == [2]  # 1 is how the interface spells handle 0
    assert producer_streams([None, None], 3) == []


def test_operand_records_the_interface_stream_from_version_3_only():
    assert as_operand(FakeDeviceArray((2, 2), stream=42), "a").stream == 42
    assert as_operand(FakeDeviceArray((2, 2), stream=42, version=2), "a").stream is None


# --- errors and internal entry points ------------------------------------------

def test_ecgemm_error_names_status_and_argument_and_pickles():
    error = ecgemm.EcgemmError("ECGEMM_STATUS_INVALID_VALUE", "an argument is invalid", 8)
    assert "ECGEMM_STATUS_INVALID_VALUE" in str(error) and "lda" in str(error)
    assert error.arg_name == "lda"
    copy = pickle.loads(pickle.dumps(error))
    assert (copy.status, copy.message, copy.arg, str(copy)) == (
        error.status, error.message, error.arg, str(error))


def test_validate_reports_netlib_positions():
    assert ecgemm._validate(0, 0, 4, 5, 6, 4, 6, 4) == 0
    assert ecgemm._validate(3, 0, 4, 5, 6, 4, 6, 4) == 1
    assert ecgemm._validate(0, 0, 4, 5, 6, 3, 6, 4) == 8
    assert ecgemm._validate(0, 0, 4, 5, 6, 4, 6, 3) == 13


def test_split_host_returns_float32_parts_of_the_right_format():
    x = np.random.default_rng(1).uniform(-4, 4, (3, 50)).astype(np.float32)
    hi, lo = ecgemm._split_host("tf32", x)
    assert hi.shape == lo.shape == x.shape and hi.dtype == lo.dtype == np.float32
    assert not (hi.view(np.uint32) & 0x1FFF).any()  # TF32 keeps 10 of 23 mantissa bits
    assert np.all(np.abs(x.astype(np.float64) - hi - lo) <= 2.0**-21 * np.abs(x))
    hi16, _ = ecgemm._split_host("half", x)
    np.testing.assert_array_equal(hi16, hi16.astype(np.float16).astype(np.float32))


def test_split_host_refuses_other_dtypes_and_methods():
    with pytest.raises(TypeError, match="float32"):
        ecgemm._split_host("tf32", np.ones(4))
    with pytest.raises(ValueError, match="method"):
        ecgemm._split_host("bf16", np.ones(4, np.float32))


# --- the device rule (one device per call), checked without two GPUs ------------------

class _HandleOn:
    """Stands in for an ecgemm.Handle created on `device` (only .device is read)."""

    def __init__(self, device):
        self.device = device


def _operands_on(monkeypatch, devices):
    """Fake device operands whose memory `pointer_device` reports on `devices`."""
    ops = [as_operand(FakeDeviceArray((4, 4), ptr=FAKE_PTR + 4096 * i), name)
           for i, name in enumerate(("a", "b", "out"))]
    where = {op.ptr: dev for op, dev in zip(ops, devices)}
    monkeypatch.setattr(_ecgemm, "pointer_device", lambda ptr, name: where[ptr])
    return tuple(ops)


def test_operands_on_different_devices_are_refused(monkeypatch):
    from ecgemm._api import _device_and_handle
    ops = _operands_on(monkeypatch, (0, 1, 0))
    with pytest.raises(ValueError, match=r"different devices \(a on device 0, b on device 1\)"):
        _device_and_handle(ops, None)


def test_operands_on_another_device_than_the_handle_are_refused(monkeypatch):
    from ecgemm._api import _device_and_handle
    ops = _operands_on(monkeypatch, (1, 1, 1))
    with pytest.raises(ValueError, match="on device 1 but the handle was created on device 0"):
        _device_and_handle(ops, _HandleOn(0))
    handle = _HandleOn(1)
    assert _device_and_handle(ops, handle) == (1, handle)
