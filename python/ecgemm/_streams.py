"""Streams and result arrays, in the terms of the package that owns the operands.

Only packages whose arrays are already in the caller's hands are imported, so
this module costs nothing to users of one package and runs without a GPU.
"""

from __future__ import annotations

import sys
from typing import Any, Iterable, List, Optional, Tuple

import numpy as np

LEGACY_STREAM = 1  # how __cuda_array_interface__ spells the legacy default stream (handle 0)


def stream_handle(stream: Any) -> int:
    """The ``cudaStream_t`` value of `stream`, as an int.

    Parameters
    ----------
    stream : int or stream object
        A raw handle (0 is the legacy default stream), or an object with
        ``__cuda_stream__`` (CUDA stream protocol), ``.ptr`` (``cupy.cuda.Stream``),
        ``.cuda_stream`` (``torch.cuda.Stream``) or ``.handle`` (Numba).

    Raises
    ------
    TypeError
        `stream` is none of the above.
    """
    if isinstance(stream, bool):
        raise TypeError("stream must be a CUDA stream or an int handle, got a bool")
    if isinstance(stream, (int, np.integer)):
        if stream < 0:
            raise ValueError(f"stream handle must be non-negative, got {int(stream)}")
        return int(stream)
    protocol = getattr(stream, "__cuda_stream__", None)
    if callable(protocol):
        _version, handle = protocol()
        return int(handle)
    for attribute in ("ptr", "cuda_stream"):
        handle = getattr(stream, attribute, None)
        if isinstance(handle, (int, np.integer)):
            return int(handle)
    handle = getattr(stream, "handle", None)  # Numba: a ctypes c_void_p or a CUstream
    if handle is not None:
        value = getattr(handle, "value", handle)
        return 0 if value is None else int(value)
    raise TypeError(
        f"stream must be an int handle, a cupy.cuda.Stream, a torch.cuda.Stream or an object "
        f"with __cuda_stream__, got {type(stream).__module__}.{type(stream).__qualname__}")


def current_stream(package: str, device: int) -> int:
    """The stream that `package` would run its own work on now, on `device`.

    CuPy and PyTorch keep a current stream per device (``with stream:``); NumPy
    and Numba have none, so ecgemm uses the legacy default stream (0).
    """
    if package == "cupy":
        cupy = sys.modules["cupy"]
        with cupy.cuda.Device(device):
            return int(cupy.cuda.get_current_stream().ptr)
    if package == "torch":
        torch = sys.modules["torch"]
        return int(torch.cuda.current_stream(device).cuda_stream)
    return 0  # NumPy, Numba, DLPack-only packages: the legacy default stream


def producer_streams(declared: Iterable[Optional[int]], stream: int) -> List[int]:
    """Streams that the call on `stream` must wait for, from the operands' CAI v3 ``stream``.

    None means the producer needs no synchronisation; the legacy default stream
    is 1 in the interface and 0 as a handle, so the two count as the same.
    """
    waits: List[int] = []
    for producer in declared:
        if producer is None:
            continue
        same = producer == stream or (producer == LEGACY_STREAM and stream == 0)
        if not same and producer not in waits:
            waits.append(producer)
    return waits


def empty_result(package: str, shape: Tuple[int, ...], device: int, stream: int) -> Any:
    """A C-ordered float32 array of `shape` on `device`, made by `package`.

    For other packages, an ``ecgemm._ecgemm.DeviceArray`` allocated on `stream`
    (``__cuda_array_interface__`` and DLPack), for the caller to import with the
    package's ``from_dlpack``.
    """
    if package == "cupy":
        cupy = sys.modules["cupy"]
        with cupy.cuda.Device(device):
            return cupy.empty(shape, dtype=cupy.float32)
    if package == "torch":
        torch = sys.modules["torch"]
        return torch.empty(shape, dtype=torch.float32, device=torch.device("cuda", device))
    if package == "numba":
        from numba import cuda

        with cuda.gpus[device]:
            # The array's stream is the one ecgemm writes it on, so that its own
            # __cuda_array_interface__ tells the next consumer to wait for it.
            on = cuda.external_stream(stream) if stream else 0
            return cuda.device_array(shape, dtype=np.float32, stream=on)
    from ._ecgemm import DeviceArray

    return DeviceArray(shape, device, stream)
