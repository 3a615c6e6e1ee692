"""``matmul`` and ``sgemm``: check everything, then make one C call.

The common case of ``matmul`` (2-D CUDA tensors of PyTorch or CuPy, or 3-D stacks of
one batch size, no handle or stream) runs in Cython (``_ecgemm.matmul_fast``, see _fast.pxi); every
other call takes the general path here: operands described once (_operands),
planned once (_layout), one C call (plain, strided-batched or pointer-array).

All argument errors are raised before the GPU is touched, so an ``out`` array is
never written when a call fails its checks (and NumPy ``out`` arrays are written
only after the GPU finished successfully).
"""

from __future__ import annotations

import numbers
import sys
from typing import Any, Dict, Optional, Tuple

import numpy as np

from . import _ecgemm
from ._layout import (Broadcast, as_stack, check_items_disjoint, check_layout, matmul_shapes,
                      plan_batch)
from ._modes import normalize_mode
from ._operands import (ITEMSIZE, Operand, as_operand, check_2d, check_no_overlap,
                        check_same_side, check_writable)
from ._streams import current_stream, empty_result, producer_streams, stream_handle

default_handle = _ecgemm.default_handle  # this thread's handle per device (created on first use)
_NATIVE_RESULTS = frozenset({"cupy", "torch", "numba"})  # device arrays empty_result makes
STAGING_ALIGNMENT = 256  # bytes; host spans keep their address modulo this on the device


def matmul(a: Any, b: Any, *, out: Any = None, alpha: float = 1.0, beta: float = 0.0,
           mode: Optional[str] = None, handle: Optional["_ecgemm.Handle"] = None,
           stream: Any = None) -> Any:
    """Matrix product ``alpha * a @ b + beta * out`` of float32 arrays.

    Follows NumPy's ``matmul``, computed by ecgemm on the GPU: (m, k) @ (k, n) is
    (m, n); stacks (..., m, k) @ (..., k, n) broadcast their batch dimensions, a
    1-D `a` is a row and a 1-D `b` a column (dropped from the result).

    Parameters
    ----------
    a, b : array
        float32 arrays, both on the host (NumPy, or DLPack producers on the CPU) or
        both on the GPU (``__cuda_array_interface__``: CuPy, PyTorch, Numba; or
        DLPack: JAX and any array-API library). Matrices with one unit stride are
        used in place (C or Fortran order, slices). A stack runs as one batched
        call: strided when each operand's batch dimensions reduce to one stride,
        else on arrays of item pointers.
    out : array, optional
        float32 array of the result's shape, on the same side as `a` and `b`, not
        overlapping them. Required when `beta` is not 0.
    alpha, beta : float
        Scalars, rounded to float32. With ``beta == 0`` `out` is written without
        being read (NaN in it does not propagate).
    mode : str, optional
        One of ``ecgemm.MODES``; default: the handle's mode (``"tf32tf32"``).
    handle : ecgemm.Handle, optional
        Default: this thread's handle for the operands' device.
    stream : int or stream object, optional
        Stream to compute on. Default: the handle's stream if it has one, else the
        operands' package's current stream (CuPy, PyTorch), else the legacy
        default stream. Operands whose ``__cuda_array_interface__`` names another
        stream are waited for (an event, no host synchronisation); DLPack
        producers are asked to order their work before it (``__dlpack__(stream=)``).

    Returns
    -------
    array
        `out` if given; otherwise a new C-ordered array: NumPy for NumPy operands,
        else of `a`'s package (DLPack producers: through their ``from_dlpack``),
        ready on the stream the call used.

    Raises
    ------
    TypeError
        An operand is not float32 (no silent cast), not an array, or host and GPU
        operands are mixed (no implicit transfers: move them to one side).
    ValueError
        Shapes do not agree or broadcast, `out` is read-only or overlaps an input,
        a layout has no unit stride, operands are on different devices, or `beta`
        needs `out`.
    ecgemm.EcgemmError
        The library or the GPU failed (e.g. ``ECGEMM_STATUS_NO_DEVICE``).

    Notes
    -----
    NumPy operands are copied to the GPU (staging buffers packed to ld = rows),
    computed and copied back; the call returns when the result is in place. GPU
    operands are used where they are and the call returns once the work is queued.
    A result that ecgemm allocates comes from `a`'s package on its current device
    and stream; if you pass another `stream=`, synchronise before using it there.

    Examples
    --------
    >>> a = np.random.rand(256, 128).astype(np.float32)
    >>> b = np.random.rand(128, 64).astype(np.float32)
    >>> c = ecgemm.matmul(a, b)                       # doctest: +SKIP
    """
    if stream is None and (handle is None or isinstance(handle, _ecgemm.Handle)):
        result = _ecgemm.matmul_fast(a, b, out, alpha, beta, mode, handle)
        if result is not None:
            return result
    mode, stream = _check_options(mode, handle, stream)
    consumer = _consumer_stream(handle, stream)
    A, B = as_operand(a, "a", consumer), as_operand(b, "b", consumer)
    C = as_operand(out, "out", consumer) if out is not None else None
    on_device = check_same_side(A, B, C)
    shapes = matmul_shapes(A, B)
    check_layout(shapes.a)
    check_layout(shapes.b)
    alpha, beta = _scalar(alpha, "alpha"), _scalar(beta, "beta")
    if C is not None:
        _check_output(C, shapes, A, B)
    elif beta != 0.0:
        raise ValueError("beta != 0 scales the existing result, so it needs out=")
    return _run(shapes, A, C, alpha, beta, mode, handle, stream, on_device)


def explain(a: Any, b: Any, *, mode: Optional[str] = None,
            handle: Optional["_ecgemm.Handle"] = None) -> str:
    """The plan ``matmul(a, b, mode=mode, handle=handle)`` would run, as one line of text.

    The kernel family, the products it computes, its tile and split-K, and the scratch
    bytes, e.g. ``"family=fused_mma method=tf32tf32 tile=64x64 splits=4 workspace=0"``:
    what ``ECGEMM_VERBOSE=1`` prints for the call. Nothing runs on the GPU; the operands
    are only read for their shapes, strides and device.

    Raises
    ------
    TypeError, ValueError
        As :func:`matmul` would for these operands.
    """
    mode, _ = _check_options(mode, handle, None)
    consumer = _consumer_stream(handle, None)
    A, B = as_operand(a, "a", consumer), as_operand(b, "b", consumer)
    on_device = check_same_side(A, B, None)
    shapes = matmul_shapes(A, B)
    check_layout(shapes.a)
    check_layout(shapes.b)
    # The result matmul would allocate: C-ordered.
    shape = shapes.result_shape
    strides, step = [], 1
    for extent in reversed(shape):
        strides.append(step)
        step *= max(extent, 1)
    C = Operand("out", None, A.package, on_device, 0, shape, tuple(reversed(strides)), False)
    if on_device:
        _, handle = _device_and_handle((shapes.a, shapes.b), handle)
    elif handle is None:
        handle = default_handle(_ecgemm.current_device())
    plan = plan_batch(shapes.a, shapes.b, as_stack(C, shapes))
    return _ecgemm.plan_string(handle, plan.gemm, plan.count, plan.strides is None, mode)


def sgemm(transa: str, transb: str, alpha: float, a: Any, b: Any, beta: float, c: Any, *,
          mode: Optional[str] = None, handle: Optional["_ecgemm.Handle"] = None,
          stream: Any = None) -> Any:
    """BLAS SGEMM in place: ``c = alpha * op(a) @ op(b) + beta * c``.

    `a`, `b` and `c` are the logical matrices as their arrays index them (row i
    is ``a[i]`` whatever the memory order), not raw column-major buffers;
    ``op(x)`` is ``x`` for ``'N'`` and ``x.T`` for ``'T'`` or ``'C'`` (the same
    for real data). To hand over a Fortran buffer, pass a Fortran-ordered array.

    Parameters
    ----------
    transa, transb : {'N', 'T', 'C'}
        Case-insensitive.
    alpha, beta : float
        Rounded to float32. With ``beta == 0`` `c` is not read.
    a, b : array
        2-D float32; ``op(a)`` is (m, k) and ``op(b)`` is (k, n).
    c : array
        Writable (m, n) float32 array not overlapping `a` or `b`, on the same side
        (host or GPU) as they are.
    mode, handle, stream
        As in :func:`matmul`.

    Returns
    -------
    array
        `c`, updated.

    Raises
    ------
    TypeError, ValueError, ecgemm.EcgemmError
        As in :func:`matmul`; a bad `transa` or `transb` is a ``ValueError``.
    """
    op_a, op_b = _transpose_flag(transa, "transa"), _transpose_flag(transb, "transb")
    mode, stream = _check_options(mode, handle, stream)
    consumer = _consumer_stream(handle, stream)
    A, B, C = (as_operand(x, name, consumer) for x, name in ((a, "a"), (b, "b"), (c, "c")))
    for operand in (A, B, C):
        check_2d(operand)
    on_device = check_same_side(A, B, C)
    for operand in (A, B):
        check_layout(operand)
    A = A.transposed() if op_a else A
    B = B.transposed() if op_b else B
    if A.shape[1] != B.shape[0]:
        raise ValueError(f"sgemm: op(a) has shape {A.shape} and op(b) has shape {B.shape}: "
                         f"their inner dimensions {A.shape[1]} and {B.shape[0]} differ")
    alpha, beta = _scalar(alpha, "alpha"), _scalar(beta, "beta")
    shapes = Broadcast(A, B, (), (A.shape[0], B.shape[1]), False, False)
    _check_output(C, shapes, A, B)
    return _run(shapes, A, C, alpha, beta, mode, handle, stream, on_device)


def _run(shapes: Broadcast, A: Operand, C: Optional[Operand], alpha: float, beta: float,
         mode: Optional[str], handle: Optional["_ecgemm.Handle"], stream: Optional[int],
         on_device: bool) -> Any:
    """Run the checked product; allocate the result when `C` is None."""
    if not on_device:
        return _run_on_host(shapes, A, C, alpha, beta, mode, handle, stream)
    device, handle = _device_and_handle((shapes.a, shapes.b, C), handle)
    call_stream = _resolve_stream(stream, handle, A.package, device)
    result = None
    if C is None:
        result = empty_result(A.package, shapes.result_shape, device, call_stream)
        C = as_operand(result, "out")
    if C.size:
        plan = plan_batch(shapes.a, shapes.b, as_stack(C, shapes))
        waits = producer_streams((op.stream for op in (shapes.a, shapes.b, C)), call_stream)
        if plan.count == 1:
            _ecgemm.gemm_device(handle, plan.gemm, alpha, beta, mode, call_stream, waits)
        elif plan.count:
            _ecgemm.gemm_device_batched(handle, plan, alpha, beta, mode, call_stream, waits)
    return C.owner if result is None or A.package in _NATIVE_RESULTS else _in_package(result, A)


def _run_on_host(shapes: Broadcast, A: Operand, C: Optional[Operand], alpha: float,
                 beta: float, mode: Optional[str], handle: Optional["_ecgemm.Handle"],
                 stream: Optional[int]) -> Any:
    """Host operands: one product through packed staging copies (gemm_host), a stack
    through one device buffer holding each operand's memory span (one batched call)."""
    result = None
    if C is None:
        result = np.empty(shapes.result_shape, dtype=np.float32)
        C = as_operand(result, "out")
    if C.size:
        handle = handle if handle is not None else default_handle(_ecgemm.current_device())
        call_stream = _resolve_stream(stream, handle, "numpy", handle.device)
        stack = as_stack(C, shapes)
        plan = plan_batch(shapes.a, shapes.b, stack)
        if plan.count == 1:
            _ecgemm.gemm_host(handle, plan.gemm, alpha, beta, mode, call_stream, beta != 0.0)
        elif plan.count:
            _stack_on_device(shapes, stack, alpha, beta, mode, handle, call_stream)
    return C.owner if result is None or A.package == "numpy" else _in_package(result, A)


def _stack_on_device(shapes: Broadcast, C: Operand, alpha: float, beta: float,
                     mode: Optional[str], handle: "_ecgemm.Handle", stream: int) -> None:
    """Copy the memory spans of a host stack's operands to one device buffer (every
    stride kept), run the batched call there, copy C's span back (and wait)."""
    stacks = (shapes.a, shapes.b, C)
    spans, starts, total = [], [], 0
    for op in stacks:
        low, high = op.byte_range()
        start = -(-total // STAGING_ALIGNMENT) * STAGING_ALIGNMENT + low % STAGING_ALIGNMENT
        spans.append((low, high))
        starts.append(start)
        total = start + (high - low)
    staging = _ecgemm.DeviceArray((-(-total // ITEMSIZE),), handle.device, stream)
    on_device = []
    for op, (low, high), start in zip(stacks, spans, starts):
        # C travels too: the copy back writes its whole span, gaps included.
        staging.upload(start, low, high - low)
        on_device.append(op._replace(ptr=staging.ptr + start + (op.ptr - low), on_device=True))
    plan = plan_batch(*on_device)
    _ecgemm.gemm_device_batched(handle, plan, alpha, beta, mode, stream, [])
    low, high = spans[2]
    staging.download(starts[2], low, high - low)


def _in_package(result: Any, A: Operand) -> Any:
    """`result` imported into `a`'s package through its ``from_dlpack``."""
    namespace = getattr(A.owner, "__array_namespace__", None)
    module = namespace() if callable(namespace) else sys.modules.get(A.package)
    from_dlpack = getattr(module, "from_dlpack", None)
    # Without one, ecgemm's own array (CAI and DLPack) is still a usable result.
    return result if from_dlpack is None else from_dlpack(result)


def _check_output(C: Operand, shapes: Broadcast, A: Operand, B: Operand) -> None:
    if C.shape != shapes.result_shape:
        raise ValueError(f"{C.name} has shape {C.shape}, but the product of {A.name} "
                         f"{A.shape} and {B.name} {B.shape} has shape {shapes.result_shape}")
    check_writable(C)
    stack = as_stack(C, shapes)
    check_layout(stack)
    check_items_disjoint(stack)
    check_no_overlap(C, A, B)


def _scalar(value: Any, name: str) -> float:
    if not isinstance(value, numbers.Real):  # Python and NumPy ints and floats, not complex
        raise TypeError(f"{name} must be a real number, got {type(value).__name__}")
    return float(value)


def _transpose_flag(flag: Any, name: str) -> bool:
    """True for 'T' or 'C' (transpose), False for 'N'."""
    if isinstance(flag, str) and flag.upper() in ("N", "T", "C"):
        return flag.upper() != "N"
    raise ValueError(f"{name} must be 'N', 'T' or 'C', got {flag!r}")


def _check_options(mode: Any, handle: Any, stream: Any) -> Tuple[Optional[str], Optional[int]]:
    """Check the keyword options before the GPU is touched; return mode and stream handle."""
    if handle is not None and not isinstance(handle, _ecgemm.Handle):
        raise TypeError(f"handle must be an ecgemm.Handle, got {type(handle).__name__}")
    return normalize_mode(mode), (None if stream is None else stream_handle(stream))


def _device_and_handle(operands: Tuple[Optional[Operand], ...],
                       handle: Optional["_ecgemm.Handle"]) -> Tuple[int, "_ecgemm.Handle"]:
    """The one device that holds the GPU operands, and the handle to use there."""
    devices: Dict[int, str] = {}  # device -> name of the first operand found there
    for op in operands:
        if op is not None and op.size:
            device = op.device if op.device is not None else _ecgemm.pointer_device(op.ptr,
                                                                                     op.name)
            devices.setdefault(device, op.name)
    if len(devices) > 1:
        where = ", ".join(f"{name} on device {dev}" for dev, name in devices.items())
        raise ValueError(f"operands are on different devices ({where}); ecgemm computes on one")
    if handle is not None:
        device = next(iter(devices), handle.device)
        if device != handle.device:
            raise ValueError(f"the operands are on device {device} but the handle was created "
                             f"on device {handle.device}")
        return device, handle
    device = next(iter(devices)) if devices else _ecgemm.current_device()
    return device, default_handle(device)


def _consumer_stream(handle: Optional["_ecgemm.Handle"], stream: Optional[int]) -> int:
    """The stream that DLPack producers are asked to order their work before.

    Explicit `stream`, else the handle's, else the legacy default (0): packages that
    only speak DLPack (JAX...) have no current stream ecgemm could follow.
    """
    if stream is not None:
        return stream
    if handle is not None and handle.stream is not None:
        return handle.stream
    return 0


def _resolve_stream(stream: Optional[int], handle: "_ecgemm.Handle", package: str,
                    device: int) -> int:
    """Explicit `stream`, else the handle's, else the package's current stream."""
    if stream is not None:
        return stream
    if handle.stream is not None:
        return handle.stream
    return current_stream(package, device)
