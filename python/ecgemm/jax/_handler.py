"""Load libecgemm_jax.so (the XLA FFI handlers, ``_ffi.cpp``) and register them with XLA;
ask it how much scratch a call needs.

The library sits beside libecgemm in the package's ``lib/`` folder; it exists only
where jaxlib was importable when ecgemm was built (its FFI headers come from there).
"""

from __future__ import annotations

import ctypes
import os
from typing import Optional, Sequence

import jax

from .._paths import get_library_dir

TARGET = "ecgemm_matmul"  # the custom call (_ffi.cpp; what it computes: _target.py)
LIBRARY = "libecgemm_jax.so"
# The build that leaves LIBRARY out says so; this is how to get it (README.md, JAX).
REBUILD = ("install jax first, then rebuild ecgemm so that the build sees it: "
           "python3 -m pip install --no-build-isolation . (with the build requirements "
           "installed: scikit-build-core cython numpy), or keep build isolation and name "
           "the headers: python3 -m pip install -C cmake.define.ECGEMM_XLA_FFI_INCLUDE_DIR="
           "\"$(python3 -c 'import jax.ffi; print(jax.ffi.include_dir())')\" .")


def library_path() -> str:
    return os.path.join(get_library_dir(), LIBRARY)


def register() -> None:
    """Register the handlers: ecgemm on CUDA devices, a clear error on the host."""
    path = library_path()
    if not os.path.isfile(path):
        raise ImportError(
            f"ecgemm.jax: this ecgemm was built without its XLA FFI handler ({LIBRARY} is "
            f"not in {get_library_dir()}): jaxlib was not importable when it was built. "
            f"To get it, {REBUILD}")
    global _library
    library = ctypes.CDLL(path)
    query = library.EcgemmMatmulWorkspaceBytes
    dims = ctypes.POINTER(ctypes.c_int64)
    query.argtypes = [dims, ctypes.c_size_t, dims, ctypes.c_size_t, dims, ctypes.c_size_t,
                      ctypes.c_int32, ctypes.c_int, ctypes.c_int,
                      ctypes.POINTER(ctypes.c_uint64)]
    query.restype = ctypes.c_int
    _library = library
    jax.ffi.register_ffi_target(TARGET, jax.ffi.pycapsule(library.EcgemmMatmulCuda),
                                platform="CUDA")
    jax.ffi.register_ffi_target(TARGET, jax.ffi.pycapsule(library.EcgemmMatmulHost),
                                platform="cpu")


_library: Optional[ctypes.CDLL] = None


def workspace_bytes(a: Sequence[int], b: Sequence[int], c: Sequence[int], mode: int,
                    transpose_a: bool, transpose_b: bool) -> int:
    """The size of the custom call's scratch result for these buffer shapes, planned on
    the current CUDA device (the handler's EcgemmMatmulWorkspaceBytes). 0 where the call
    needs none, or where no GPU answers (the CPU backend; the call then plans within
    whatever it gets, docs/memory.md)."""
    def array(shape):
        return (ctypes.c_int64 * max(len(shape), 1))(*shape), len(shape)

    (pa, na), (pb, nb), (pc, nc) = array(a), array(b), array(c)
    size = ctypes.c_uint64(0)
    status = _library.EcgemmMatmulWorkspaceBytes(pa, na, pb, nb, pc, nc, mode,
                                                 int(transpose_a), int(transpose_b),
                                                 ctypes.byref(size))
    return size.value if status == 0 else 0
