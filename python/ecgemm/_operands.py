"""Turn NumPy arrays, ``__cuda_array_interface__`` objects and DLPack producers into
checked operand descriptions.

Pure Python: everything here runs, and is tested, without a GPU. Nothing is copied
or converted; an operand that ecgemm cannot use as it is raises ``TypeError`` or
``ValueError`` with a hint. Operands may have any number of dimensions here; the
callers decide what they accept (``matmul`` N-D, ``sgemm`` 2-D).

Protocols: the CUDA Array Interface is read by hand (a dict lookup is the cheapest
thing there is, and it keeps the package standalone). DLPack producers are read
through NVIDIA cuda.core's ``StridedMemoryView``, imported only when a device
DLPack operand arrives; it also makes the producer order its work before the
consumer stream (the protocol's ``stream=`` handshake). Host DLPack operands are
read by ``numpy.from_dlpack`` and then behave as NumPy arrays.
"""

from __future__ import annotations

from typing import Any, NamedTuple, Optional, Tuple

import numpy as np

ITEMSIZE = 4  # bytes of a float32

# How to make a float32 copy, by the package that owns the array.
_CONVERSION_HINTS = {
    "numpy": "{name}.astype(numpy.float32)",
    "cupy": "{name}.astype(cupy.float32)",
    "torch": "{name}.to(torch.float32)",
    "numba": "numba.cuda.to_device({name}.copy_to_host().astype(numpy.float32))",
    "jax": "{name}.astype(jax.numpy.float32)",
}
# Packages whose __cuda_array_interface__ states their stream (or needs none) and
# costs no host wait: read it first. Others that speak DLPack (JAX's interface
# blocks the host until the array is ready) are read through DLPack.
_CAI_FIRST = frozenset({"cupy", "torch", "numba", "ecgemm"})
# DLPack device types (dlpack.h, DLDeviceType).
DL_CPU, DL_CUDA, DL_CUDA_HOST, DL_CUDA_MANAGED = 1, 2, 3, 13


class Operand(NamedTuple):
    """An N-D float32 array as ecgemm sees it (a tuple: cheap to make and to transpose).

    The last two dimensions are the matrix, the others the batch.

    Attributes
    ----------
    name : str
        The argument's name, for messages (``"a"``, ``"out"``).
    owner : object
        The array itself: kept so that its memory outlives the call.
    package : str
        ``"numpy"``, ``"cupy"``, ``"torch"``, ``"numba"``, ``"jax"`` or the owner's
        top-level module.
    on_device : bool
        True for GPU memory, False for host memory (NumPy, host DLPack).
    ptr : int
        Address of element ``[0, ..., 0]``.
    shape : tuple of int
    strides : tuple of int
        Strides in elements (not bytes).
    readonly : bool
    stream : int or None
        CAI v3 ``stream``: the stream on which the producer works (1 legacy,
        2 per-thread default), ``None`` when no synchronisation is needed (DLPack
        operands are ordered when they are read).
    device : int or None
        The CUDA device, where the protocol states it (DLPack); None: ask CUDA.
    holder : object
        What keeps a protocol's view alive (DLPack), besides `owner`.
    """

    name: str
    owner: Any
    package: str
    on_device: bool
    ptr: int
    shape: Tuple[int, ...]
    strides: Tuple[int, ...]
    readonly: bool
    stream: Optional[int] = None
    device: Optional[int] = None
    holder: Any = None

    @property
    def size(self) -> int:
        size = 1
        for extent in self.shape:
            size *= extent
        return size

    def transposed(self) -> "Operand":
        """The same memory with the last two dimensions swapped (no copy)."""
        shape, strides = self.shape, self.strides
        return self._replace(shape=shape[:-2] + (shape[-1], shape[-2]),
                             strides=strides[:-2] + (strides[-1], strides[-2]))

    def byte_range(self) -> Tuple[int, int]:
        """``[first, last)`` bytes that the array spans; empty for an empty array."""
        if self.size == 0:
            return (self.ptr, self.ptr)
        offsets = [(extent - 1) * stride for extent, stride in zip(self.shape, self.strides)]
        low = self.ptr + ITEMSIZE * sum(min(0, off) for off in offsets)
        high = self.ptr + ITEMSIZE * (sum(max(0, off) for off in offsets) + 1)
        return (low, high)


def package_of(obj: Any) -> str:
    """Top-level package of `obj`'s type, folding numba-cuda into numba and jaxlib into jax."""
    root = type(obj).__module__.split(".")[0]
    return {"numba_cuda": "numba", "jaxlib": "jax"}.get(root, root)


def as_operand(obj: Any, name: str, consumer_stream: Optional[int] = None) -> Operand:
    """Describe `obj` as an :class:`Operand`, or raise if ecgemm cannot use it.

    Parameters
    ----------
    obj : array
        NumPy array, ``__cuda_array_interface__`` object or DLPack producer.
    name : str
        The argument's name, for messages.
    consumer_stream : int, optional
        The stream (a handle; 0 is the legacy default) that will read a device
        DLPack operand: the producer is asked to order its work before it. None:
        no ordering (describing only).

    Raises
    ------
    TypeError
        `obj` speaks none of the protocols, or its dtype is not float32 (the
        message names the dtype and says how to convert).
    ValueError
        Masked, misaligned, or strides that are not whole elements.
    """
    package = package_of(obj)
    kind = type(obj)
    if package not in _CAI_FIRST and hasattr(kind, "__dlpack__") and not isinstance(obj, np.ndarray):
        return _from_dlpack(obj, name, package, consumer_stream)
    cai = getattr(obj, "__cuda_array_interface__", None)
    if cai is not None:
        return _from_cuda_array_interface(obj, cai, name)
    if isinstance(obj, np.ndarray):
        return _from_numpy(obj, name)
    if hasattr(kind, "__dlpack__") and hasattr(kind, "__dlpack_device__"):
        return _from_dlpack(obj, name, package, consumer_stream)
    raise TypeError(
        f"{name} must be a NumPy array or a GPU array with __cuda_array_interface__ "
        f"(CuPy, PyTorch CUDA tensor, Numba device array) or DLPack (JAX, ...), got "
        f"{type(obj).__module__}.{type(obj).__qualname__}")


def _from_numpy(array: np.ndarray, name: str, owner: Any = None,
                package: str = "numpy") -> Operand:
    if isinstance(array, np.ma.MaskedArray):
        raise ValueError(f"{name} is a masked array; ecgemm has no notion of masks: "
                         f"pass {name}.filled(...) or {name}.data")
    _check_dtype(array.dtype, name, package)
    return Operand(name=name, owner=array if owner is None else owner, package=package,
                   on_device=False, ptr=array.__array_interface__["data"][0],
                   shape=tuple(array.shape),
                   strides=_element_strides(array.strides, array.shape, name),
                   readonly=not array.flags.writeable, holder=array)


def _from_cuda_array_interface(obj: Any, cai: dict, name: str) -> Operand:
    package = package_of(obj)
    if cai.get("mask") is not None:
        raise ValueError(f"{name} is a masked array (its __cuda_array_interface__ has a mask); "
                         "ecgemm has no notion of masks")
    try:
        dtype = np.dtype(cai["typestr"])
    except TypeError:
        raise TypeError(f"{name} has typestr {cai['typestr']!r}, which is not a float32 type; "
                        f"convert it to float32 first") from None
    _check_dtype(dtype, name, package, obj)
    shape = tuple(int(extent) for extent in cai["shape"])
    ptr, readonly = cai["data"]
    strides = cai.get("strides")
    if strides is None:  # the interface's way of saying C-contiguous
        strides = _c_strides(shape)
    if ptr % ITEMSIZE:
        raise ValueError(f"{name} starts at address {ptr:#x}, which is not 4-byte aligned; "
                         "a float32 array must be")
    stream = cai.get("stream") if cai.get("version", 0) >= 3 else None
    if stream == 0:
        raise ValueError(f"{name} declares stream 0 in __cuda_array_interface__, which the "
                         "interface forbids (1 is the legacy default stream, 2 the per-thread one)")
    return Operand(name=name, owner=obj, package=package, on_device=True, ptr=int(ptr),
                   shape=shape, strides=_element_strides(strides, shape, name),
                   readonly=bool(readonly), stream=None if stream is None else int(stream))


def _c_strides(shape: Tuple[int, ...]) -> Tuple[int, ...]:
    """Byte strides of a C-contiguous float32 array of `shape`."""
    strides, step = [], ITEMSIZE
    for extent in reversed(shape):
        strides.append(step)
        step *= max(1, extent)
    return tuple(reversed(strides))


def _from_dlpack(obj: Any, name: str, package: str, consumer_stream: Optional[int]) -> Operand:
    _check_declared_dtype(obj, name, package)
    device_type, device_id = obj.__dlpack_device__()
    if device_type == DL_CPU:
        try:
            array = np.from_dlpack(obj)
        except (BufferError, TypeError, RuntimeError) as error:
            raise TypeError(f"{name} is a host DLPack array that NumPy cannot read: {error}") \
                from None
        return _from_numpy(array, name, owner=obj, package=package)
    if device_type not in (DL_CUDA, DL_CUDA_MANAGED):
        raise TypeError(f"{name} lives on DLPack device type {int(device_type)}; ecgemm reads "
                        "CUDA device memory (kDLCUDA) and host memory (kDLCPU)")
    view = _strided_memory_view(obj, name, consumer_stream)
    _check_dtype(np.dtype(view.dtype), name, package, obj)
    shape = tuple(view.shape)
    strides = view.strides  # elements; None means C-contiguous
    strides = tuple(strides) if strides is not None else tuple(
        s // ITEMSIZE for s in _c_strides(shape))
    if view.ptr % ITEMSIZE:
        raise ValueError(f"{name} starts at address {view.ptr:#x}, which is not 4-byte aligned; "
                         "a float32 array must be")
    return Operand(name=name, owner=obj, package=package, on_device=True, ptr=int(view.ptr),
                   shape=shape, strides=strides, readonly=bool(view.readonly),
                   device=int(device_id), holder=view)


def _strided_memory_view(obj: Any, name: str, consumer_stream: Optional[int]) -> Any:
    """cuda.core's view of a device DLPack operand, ordered before `consumer_stream`.

    Which reader where, and why (an H200 host, bench/results/README.md#python-call-path): the
    whole Cython corridor for two 64 x 64 CUDA tensors, result included, takes
    9-13 us (``_ecgemm.matmul_fast``, reading PyTorch/CuPy attributes directly). A
    ``StridedMemoryView.from_dlpack`` costs 2.4 us per PyTorch operand and 7.4 us per
    JAX operand, and the producer's ``__dlpack__`` with a stream handshake comes on
    top (ecgemm.matmul on DLPack-only PyTorch operands: 132 us a call; the deprecated
    ``StridedMemoryView(obj)`` constructor alone took 15.3 us an operand): three
    operands through cuda.core cannot fit the 15 us budget. So CAI operands of
    CuPy, PyTorch and Numba are read in Cython or by the dict reader above, and
    cuda.core serves the DLPack producers (JAX...), where a maintained
    implementation of the protocol's versions, devices and stream handshake is
    worth its cost.
    """
    try:
        from cuda.core.utils import StridedMemoryView
    except ImportError:
        raise TypeError(f"{name} is a device DLPack array; reading DLPack operands needs NVIDIA "
                        "cuda.core (pip install cuda-core), or pass an array with "
                        "__cuda_array_interface__") from None
    # The protocol spells the legacy default stream 1 (0 is forbidden); -1: no ordering.
    stream = -1 if consumer_stream is None else (consumer_stream or 1)
    read = getattr(StridedMemoryView, "from_dlpack", StridedMemoryView)
    try:
        return read(obj, stream)
    except BufferError as error:
        raise TypeError(f"{name} could not be read through DLPack: {error}") from None


def _check_dtype(dtype: np.dtype, name: str, package: str, owner: Any = None) -> None:
    if dtype == np.float32:
        return
    # A non-native byte order prints as ">f4"; the native one by name ("float64").
    shown = dtype.name if dtype.isnative else dtype.str
    if dtype.kind == "V":  # a type the interface cannot spell (bfloat16 is "<V2"): ask the owner
        shown = _declared_dtype(owner) or shown
    _refuse_dtype(shown, name, package)


def _declared_dtype(owner: Any) -> Optional[str]:
    """`owner`'s own name for its dtype ("bfloat16" for torch.bfloat16), if it has one."""
    dtype = getattr(owner, "dtype", None)
    if dtype is None:
        return None
    return str(getattr(dtype, "name", dtype)).rpartition(".")[2]


def _check_declared_dtype(obj: Any, name: str, package: str) -> None:
    """Refuse a DLPack operand whose own dtype is not float32 before its data is touched."""
    shown = _declared_dtype(obj)
    if shown is not None and shown != "float32":
        _refuse_dtype(shown, name, package)


def _refuse_dtype(shown: str, name: str, package: str) -> None:
    hint = _CONVERSION_HINTS.get(package, "a float32 copy of {name}").format(name=name)
    raise TypeError(f"ecgemm computes in float32, but {name} has dtype {shown}; convert it "
                    f"explicitly, e.g. {hint} (ecgemm never casts silently)")


def check_2d(op: Operand) -> None:
    """Raise ``ValueError`` unless `op` is a matrix (``sgemm`` takes no stacks)."""
    if len(op.shape) != 2:
        raise ValueError(f"{op.name} must be 2-D, got shape {op.shape}"
                         + ("; ecgemm.matmul takes stacks of matrices" if len(op.shape) > 2 else ""))


def _element_strides(byte_strides, shape: Tuple[int, ...], name: str) -> Tuple[int, ...]:
    byte_strides = tuple(int(s) for s in byte_strides)
    if any(s % ITEMSIZE for s, extent in zip(byte_strides, shape) if extent > 1):
        raise ValueError(f"{name} has strides {byte_strides} bytes, not whole float32 elements")
    return tuple(s // ITEMSIZE for s in byte_strides)


def check_writable(op: Operand) -> None:
    """Raise ``ValueError`` if the result cannot be written into `op`."""
    if op.readonly:
        raise ValueError(f"{op.name} is read-only; ecgemm writes its result there")


def check_no_overlap(output: Operand, *inputs: Operand) -> None:
    """Raise ``ValueError`` if `output`'s memory overlaps any input's.

    Conservative (address ranges, as ``numpy.may_share_memory``): the GEMM
    reads A and B while it writes C, so any overlap could corrupt the result.
    """
    out_low, out_high = output.byte_range()
    for op in inputs:
        low, high = op.byte_range()
        if low < out_high and out_low < high:
            raise ValueError(f"{output.name} overlaps {op.name} in memory; ecgemm would read "
                             f"{op.name} while writing {output.name}: pass a separate array")


def check_same_side(*operands: Optional[Operand]) -> bool:
    """Return True when all operands are on the device, False when all are NumPy.

    Mixing is refused rather than copied implicitly: a hidden transfer is a cost
    the caller should see. Operands that are ``None`` are ignored.
    """
    present = [op for op in operands if op is not None]
    on_device = present[0].on_device
    for op in present[1:]:
        if op.on_device != on_device:
            host, device = (op, present[0]) if on_device else (present[0], op)
            raise TypeError(
                f"{device.name} is a GPU array ({device.package}) but {host.name} is a NumPy "
                f"array on the host; pass all operands on the same side, e.g. move "
                f"{host.name} to the GPU with cupy.asarray / torch.as_tensor(..., device='cuda')")
    return on_device
