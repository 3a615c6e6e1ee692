"""Load libecgemm_jax.so (the XLA FFI handlers, ``_ffi.cpp``) and register them with XLA.

The library sits beside libecgemm in the package's ``lib/`` folder; it exists only
where jaxlib was importable when ecgemm was built (its FFI headers come from there).
"""

from __future__ import annotations

import ctypes
import os

import jax

from .._paths import get_library_dir
from ._target import TARGET

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
    library = ctypes.CDLL(path)
    jax.ffi.register_ffi_target(TARGET, jax.ffi.pycapsule(library.EcgemmMatmulCuda),
                                platform="CUDA")
    jax.ffi.register_ffi_target(TARGET, jax.ffi.pycapsule(library.EcgemmMatmulHost),
                                platform="cpu")
