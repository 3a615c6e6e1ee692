"""``ecgemm.intercept_cublas``: the run-time switch of the preloaded cuBLAS interception
library (``LD_PRELOAD=$(python -m ecgemm --preload)``, cublas/README.md).

The library answers FP32 cuBLAS GEMMs with ecgemm in the mode that
``ECGEMM_CUBLAS_MODE`` set at start; this context manager changes that mode for a
block of code (process-wide: every thread, every cuBLAS handle) and restores it after.
"""

from __future__ import annotations

import contextlib
import ctypes
from typing import Iterator

# The modes the library knows ("auto" only where libecgemm has ECGEMM_MODE_AUTO: there
# FP32 GEMMs otherwise go to cuBLAS, with one message on stderr).
INTERCEPT_MODES = ("tf32tf32", "halfhalf", "auto", "off")


class CublasInterceptionNotLoaded(RuntimeError):
    """This process did not load libecgemm_cublas.so (start it under LD_PRELOAD)."""


def _control_functions():
    """The library's two exported control functions, looked up in the process's global
    symbol scope, where LD_PRELOAD puts the library."""
    process = ctypes.CDLL(None)
    try:
        set_mode, get_mode = process.ecgemm_cublas_set_mode, process.ecgemm_cublas_get_mode
    except AttributeError:
        raise CublasInterceptionNotLoaded(
            "libecgemm_cublas.so is not loaded in this process: start it with "
            "LD_PRELOAD=$(python -m ecgemm --preload) to route its cuBLAS FP32 GEMMs to "
            "ecgemm") from None
    set_mode.argtypes, set_mode.restype = [ctypes.c_char_p], ctypes.c_int
    get_mode.argtypes, get_mode.restype = [], ctypes.c_char_p
    return set_mode, get_mode


@contextlib.contextmanager
def intercept_cublas(mode: str = "tf32tf32") -> Iterator[str]:
    """Route this process's cuBLAS FP32 GEMMs through ecgemm in `mode` inside the block.

    ``mode`` is ``"tf32tf32"``, ``"halfhalf"``, ``"auto"`` or ``"off"`` (every call goes
    to cuBLAS). The previous mode comes back on exit, exceptions included. Yields the
    previous mode's name.

    >>> with ecgemm.intercept_cublas(mode="halfhalf"):   # doctest: +SKIP
    ...     y = torch.mm(a, b)

    Raises ``CublasInterceptionNotLoaded`` (a ``RuntimeError``) when the process was
    not started with the library preloaded, ``ValueError`` for an unknown mode.
    """
    if mode not in INTERCEPT_MODES:
        raise ValueError(f"unknown interception mode {mode!r}; expected one of "
                         f"{', '.join(INTERCEPT_MODES)}")
    set_mode, get_mode = _control_functions()
    previous = get_mode()
    if set_mode(mode.encode()) != 0:
        raise ValueError(f"libecgemm_cublas.so refused mode {mode!r}")
    try:
        yield previous.decode()
    finally:
        set_mode(previous)
