"""Where the installed package keeps what C, C++, Cython and Fortran programs build against.

The wheel is an install prefix of its own (cmake/ecgemmInstall.cmake): the ecgemm
package directory holds ``include/`` (``ecgemm.h``, the BLAS headers, the Fortran
module), ``lib/`` (``libecgemm.so``, ``libecgemm_blas.so``, ...), ``lib/cmake/ecgemm``
and ``lib/pkgconfig``. These functions answer with absolute paths into it, as
``numpy.get_include()`` and ``pybind11.get_include()`` do.
"""

from __future__ import annotations

import os

from . import _ecgemm

# The install prefix of the C/Fortran toolchain: where CMake installed the extension
# (the package directory; in an editable install the Python sources stay behind in
# the source tree, but the compiled parts are installed together).
_PREFIX = os.path.dirname(os.path.abspath(_ecgemm.__file__))
# The LD_PRELOAD library that routes cuBLAS SGEMM calls to ecgemm, where built.
_PRELOAD_LIBRARY = "libecgemm_cublas.so"


def get_include() -> str:
    """Directory holding ``ecgemm.h``, ``ecgemm_blas.h``, ``ecgemm_cblas.h`` and the
    Fortran module (``ecgemm.f90``, and ``ecgemm.mod`` where gfortran built it).

    ``cc -I$(python -c 'import ecgemm; print(ecgemm.get_include())')``; Cython code
    that ``cimport``\\ s ``ecgemm._ecgemm`` needs it on the C include path.
    """
    return os.path.join(_PREFIX, "include")


def get_library_dir() -> str:
    """Directory holding ``libecgemm.so`` and ``libecgemm_blas.so`` (link ``-lecgemm``)."""
    return os.path.join(_PREFIX, "lib")


def get_cmake_prefix() -> str:
    """The install prefix to put on ``CMAKE_PREFIX_PATH`` for ``find_package(ecgemm CONFIG)``
    (``lib/cmake/ecgemm`` and ``lib/pkgconfig`` lie below it)."""
    return _PREFIX


def compile_flags() -> str:
    """``-I`` flag for ``ecgemm.h`` and the Fortran module."""
    return f"-I{get_include()}"


def link_flags() -> str:
    """Flags that link libecgemm and let the program find it at run time.

    The run path is included because the library lives inside a Python environment,
    which no dynamic loader searches; add ``-lecgemm_blas`` or ``-lecgemm_fortran``
    after these for the BLAS drop-in or the Fortran module.
    """
    libdir = get_library_dir()
    return f"-L{libdir} -Wl,-rpath,{libdir} -lecgemm"


def preload_library() -> str:
    """Absolute path of ``libecgemm_cublas.so`` (for ``LD_PRELOAD``) in this installation.

    Raises ``FileNotFoundError`` when this build of ecgemm has none.
    """
    path = os.path.join(get_library_dir(), _PRELOAD_LIBRARY)
    if not os.path.isfile(path):
        raise FileNotFoundError(
            f"this ecgemm installation has no {_PRELOAD_LIBRARY} (looked in "
            f"{get_library_dir()}): it was built without the cuBLAS interception library")
    return path
