"""``matmul`` and ``sgemm``: check everything in Python, then make one C call.

All argument errors are raised before the GPU is touched, so an ``out`` array is
never written when a call fails its checks (and NumPy ``out`` arrays are written
only after the GPU finished successfully).
"""

from __future__ import annotations

import numbers
import threading
from typing import Any, Dict, Optional, Tuple

import numpy as np

from . import _ecgemm
from ._layout import check_layout, plan_gemm
from ._modes import normalize_mode
from ._operands import (Operand, as_operand, check_no_overlap, check_same_side,
                        check_writable)
from ._streams import current_stream, empty_result, producer_streams, stream_handle

_thread_state = threading.local()


def default_handle(device: int) -> "_ecgemm.Handle":
    """This thread's handle for `device`, created on first use.

    One per thread because a handle serves one thread at a time; one per device
    because a handle is bound to the device it was created on.
    """
    handles = _thread_state.__dict__.setdefault("handles", {})
    handle = handles.get(device)
    if handle is None:
        handle = handles[device] = _ecgemm.Handle(device=device)
    return handle


def matmul(a: Any, b: Any, *, out: Any = None, alpha: float = 1.0, beta: float = 0.0,
           mode: Optional[str] = None, handle: Optional["_ecgemm.Handle"] = None,
           stream: Any = None) -> Any:
    """Matrix product ``alpha * a @ b + beta * out`` of 2-D float32 arrays.

    Follows NumPy's ``@`` for 2-D operands, computed by ecgemm on the GPU.

    Parameters
    ----------
    a, b : array
        2-D float32 arrays of shapes (m, k) and (k, n): both NumPy arrays, or both
        GPU arrays with ``__cuda_array_interface__`` (CuPy, PyTorch, Numba). Any
        layout with one unit stride is used in place (C or Fortran order, slices).
    out : array, optional
        (m, n) float32 array, on the same side as `a` and `b`, not overlapping
        them. Required when `beta` is not 0.
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
        stream are waited for (an event, no host synchronisation).

    Returns
    -------
    array
        `out` if given; otherwise a new C-ordered (m, n) array: NumPy for NumPy
        operands, else of `a`'s package, ready on the stream the call used.

    Raises
    ------
    TypeError
        An operand is not float32 (no silent cast), not an array, or host and GPU
        operands are mixed (no implicit transfers: move them to one side).
    ValueError
        Shapes do not agree, `out` is read-only or overlaps an input, a layout has
        no unit stride, operands are on different devices, or `beta` needs `out`.
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
    A, B = as_operand(a, "a"), as_operand(b, "b")
    C = as_operand(out, "out") if out is not None else None
    on_device = check_same_side(A, B, C)
    if A.shape[1] != B.shape[0]:
        raise ValueError(f"matmul: a has shape {A.shape} and b has shape {B.shape}: "
                         f"a.shape[1] = {A.shape[1]} != b.shape[0] = {B.shape[0]}")
    shape = (A.shape[0], B.shape[1])
    check_layout(A)
    check_layout(B)
    alpha, beta = _scalar(alpha, "alpha"), _scalar(beta, "beta")
    if C is not None:
        _check_output(C, shape, A, B)
    elif beta != 0.0:
        raise ValueError("beta != 0 scales the existing result, so it needs out=")
    mode, stream = _check_options(mode, handle, stream)
    return _gemm(A, B, C, shape, alpha, beta, mode, handle, stream, on_device)


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
    A, B, C = as_operand(a, "a"), as_operand(b, "b"), as_operand(c, "c")
    on_device = check_same_side(A, B, C)
    for operand in (A, B):
        check_layout(operand)
    A = A.transposed() if op_a else A
    B = B.transposed() if op_b else B
    if A.shape[1] != B.shape[0]:
        raise ValueError(f"sgemm: op(a) has shape {A.shape} and op(b) has shape {B.shape}: "
                         f"their inner dimensions {A.shape[1]} and {B.shape[0]} differ")
    alpha, beta = _scalar(alpha, "alpha"), _scalar(beta, "beta")
    _check_output(C, (A.shape[0], B.shape[1]), A, B)
    mode, stream = _check_options(mode, handle, stream)
    return _gemm(A, B, C, C.shape, alpha, beta, mode, handle, stream, on_device)


def _gemm(A: Operand, B: Operand, C: Optional[Operand], shape: Tuple[int, int], alpha: float,
          beta: float, mode: Optional[str], handle: Optional["_ecgemm.Handle"],
          stream: Optional[int], on_device: bool) -> Any:
    """Run the checked product; allocate the result when `C` is None."""
    if not on_device:
        if C is None:
            C = as_operand(np.empty(shape, dtype=np.float32), "out")
        if C.size:
            handle = handle if handle is not None else default_handle(_ecgemm.current_device())
            call_stream = _resolve_stream(stream, handle, "numpy", handle.device)
            _ecgemm.gemm_host(handle, plan_gemm(A, B, C), alpha, beta, mode, call_stream,
                              beta != 0.0)
        return C.owner
    device, handle = _device_and_handle((A, B, C), handle)
    call_stream = _resolve_stream(stream, handle, A.package, device)
    if C is None:
        C = as_operand(empty_result(A.package, shape, device, call_stream), "out")
    if C.size:
        waits = producer_streams((op.stream for op in (A, B, C)), call_stream)
        _ecgemm.gemm_device(handle, plan_gemm(A, B, C), alpha, beta, mode, call_stream, waits)
    return C.owner


def _check_output(C: Operand, shape: Tuple[int, int], A: Operand, B: Operand) -> None:
    if C.shape != shape:
        raise ValueError(f"{C.name} has shape {C.shape}, but the product of {A.name} "
                         f"{A.shape} and {B.name} {B.shape} has shape {shape}")
    check_writable(C)
    check_layout(C)
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
            devices.setdefault(_ecgemm.pointer_device(op.ptr, op.name), op.name)
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


def _resolve_stream(stream: Optional[int], handle: "_ecgemm.Handle", package: str,
                    device: int) -> int:
    """Explicit `stream`, else the handle's, else the package's current stream."""
    if stream is not None:
        return stream
    if handle.stream is not None:
        return handle.stream
    return current_stream(package, device)
