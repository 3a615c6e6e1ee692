"""Turn NumPy arrays and ``__cuda_array_interface__`` objects into checked operand descriptions.

Pure Python: everything here runs, and is tested, without a GPU. Nothing is copied
or converted; an operand that ecgemm cannot use as it is raises ``TypeError`` or
``ValueError`` with a hint.
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
}


class Operand(NamedTuple):
    """A 2-D float32 matrix as ecgemm sees it (a tuple: cheap to make and to transpose).

    Attributes
    ----------
    name : str
        The argument's name, for messages (``"a"``, ``"out"``).
    owner : object
        The array itself: kept so that its memory outlives the call.
    package : str
        ``"numpy"``, ``"cupy"``, ``"torch"``, ``"numba"`` or the owner's top-level module.
    on_device : bool
        True for ``__cuda_array_interface__`` objects, False for NumPy arrays.
    ptr : int
        Address of element ``[0, 0]``.
    shape : tuple of int
        Logical ``(rows, cols)``.
    strides : tuple of int
        Strides in elements (not bytes).
    readonly : bool
    stream : int or None
        CAI v3 ``stream``: the stream on which the producer works (1 legacy,
        2 per-thread default), ``None`` when no synchronisation is needed.
    """

    name: str
    owner: Any
    package: str
    on_device: bool
    ptr: int
    shape: Tuple[int, int]
    strides: Tuple[int, int]
    readonly: bool
    stream: Optional[int] = None

    @property
    def size(self) -> int:
        return self.shape[0] * self.shape[1]

    def transposed(self) -> "Operand":
        """The same memory seen as the transpose (no copy)."""
        return self._replace(shape=self.shape[::-1], strides=self.strides[::-1])

    def byte_range(self) -> Tuple[int, int]:
        """``[first, last)`` bytes that the matrix spans; empty for an empty matrix."""
        if self.size == 0:
            return (self.ptr, self.ptr)
        offsets = [(extent - 1) * stride for extent, stride in zip(self.shape, self.strides)]
        low = self.ptr + ITEMSIZE * sum(min(0, off) for off in offsets)
        high = self.ptr + ITEMSIZE * (sum(max(0, off) for off in offsets) + 1)
        return (low, high)


def package_of(obj: Any) -> str:
    """Top-level package of `obj`'s type, folding numba-cuda into numba."""
    root = type(obj).__module__.split(".")[0]
    return "numba" if root == "numba_cuda" else root


def as_operand(obj: Any, name: str) -> Operand:
    """Describe `obj` as an :class:`Operand`, or raise if ecgemm cannot use it.

    Raises
    ------
    TypeError
        `obj` is neither a NumPy array nor a ``__cuda_array_interface__`` object,
        or its dtype is not float32 (the message says how to convert).
    ValueError
        Not 2-D, masked, or strides that are not whole elements.
    """
    cai = getattr(obj, "__cuda_array_interface__", None)
    if cai is not None:
        return _from_cuda_array_interface(obj, cai, name)
    if isinstance(obj, np.ndarray):
        return _from_numpy(obj, name)
    raise TypeError(
        f"{name} must be a NumPy array or a GPU array with __cuda_array_interface__ "
        f"(CuPy, PyTorch CUDA tensor, Numba device array), got {type(obj).__module__}."
        f"{type(obj).__qualname__}")


def _from_numpy(array: np.ndarray, name: str) -> Operand:
    if isinstance(array, np.ma.MaskedArray):
        raise ValueError(f"{name} is a masked array; ecgemm has no notion of masks: "
                         f"pass {name}.filled(...) or {name}.data")
    _check_dtype(array.dtype, name, "numpy")
    shape = _check_2d(array.shape, name)
    return Operand(name=name, owner=array, package="numpy", on_device=False,
                   ptr=array.__array_interface__["data"][0], shape=shape,
                   strides=_element_strides(array.strides, shape, name),
                   readonly=not array.flags.writeable)


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
    _check_dtype(dtype, name, package)
    shape = _check_2d(tuple(cai["shape"]), name)
    ptr, readonly = cai["data"]
    strides = cai.get("strides")
    if strides is None:  # the interface's way of saying C-contiguous
        strides = (shape[1] * ITEMSIZE, ITEMSIZE)
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


def _check_dtype(dtype: np.dtype, name: str, package: str) -> None:
    if dtype == np.float32:
        return
    # A non-native byte order prints as ">f4"; the native one by name ("float64").
    shown = dtype.name if dtype.isnative else dtype.str
    hint = _CONVERSION_HINTS.get(package, "a float32 copy of {name}").format(name=name)
    raise TypeError(f"ecgemm computes in float32, but {name} has dtype {shown}; convert it "
                    f"explicitly, e.g. {hint} (ecgemm never casts silently)")


def _check_2d(shape: tuple, name: str) -> Tuple[int, int]:
    if len(shape) != 2:
        raise ValueError(f"{name} must be 2-D, got shape {tuple(shape)}")
    return (int(shape[0]), int(shape[1]))


def _element_strides(byte_strides, shape: Tuple[int, int], name: str) -> Tuple[int, int]:
    byte_strides = tuple(int(s) for s in byte_strides)
    if any(s % ITEMSIZE for s, extent in zip(byte_strides, shape) if extent > 1):
        raise ValueError(f"{name} has strides {byte_strides} bytes, not whole float32 elements")
    return tuple(s // ITEMSIZE for s in byte_strides)  # type: ignore[return-value]


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
