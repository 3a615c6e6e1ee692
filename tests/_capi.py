"""ctypes view of libecgemm's C ABI, for tests that exercise the library directly
(independent of the Cython binding)."""
from __future__ import annotations

import ctypes
import glob
import importlib.util
import os
import re

STATUS = {
    "SUCCESS": 0, "NOT_INITIALIZED": 1, "ALLOC_FAILED": 3, "INVALID_VALUE": 7,
    "ARCH_MISMATCH": 8, "EXECUTION_FAILED": 13, "INTERNAL_ERROR": 14,
    "NOT_SUPPORTED": 15, "NO_DEVICE": 16,
}
REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Derived from the one table, ecgemm.h's enum: ECGEMM_MODE_<NAME> = value -> {"name": value}.
MODES = {name.lower(): int(value) for name, value in re.findall(
    r"\bECGEMM_MODE_(\w+)\s*=\s*(\d+)", open(os.path.join(REPO, "include", "ecgemm.h")).read())}
OP = {"N": 0, "T": 1, "C": 2}


def library_path() -> str | None:
    """$ECGEMM_LIBRARY, else the libecgemm shipped inside the installed package (its lib/,
    ecgemm.get_library_dir(); found without importing the Cython binding)."""
    env = os.environ.get("ECGEMM_LIBRARY")
    if env:
        return env
    spec = importlib.util.find_spec("ecgemm")
    for folder in (spec.submodule_search_locations or []) if spec else []:
        found = sorted(glob.glob(os.path.join(folder, "lib", "libecgemm.so*")))
        if found:
            return found[0]
    return None


def load() -> ctypes.CDLL:
    path = library_path()
    if path is None:
        raise FileNotFoundError("libecgemm not found: install the package or set ECGEMM_LIBRARY")
    lib = ctypes.CDLL(path)
    c_int, c_void_p, c_size_t = ctypes.c_int, ctypes.c_void_p, ctypes.c_size_t
    fptr = ctypes.c_void_p  # float* on host or device, passed as an address
    i64, ll = ctypes.c_int64, ctypes.c_longlong
    sig = {
        "ecgemm_get_status_string": ([c_int], ctypes.c_char_p),
        "ecgemm_get_status_name": ([c_int], ctypes.c_char_p),
        "ecgemm_get_version": ([], c_int),
        "ecgemm_get_last_error_arg": ([], c_int),
        "ecgemm_get_device_count": ([], c_int),
        "ecgemm_create": ([ctypes.POINTER(c_void_p)], c_int),
        "ecgemm_destroy": ([c_void_p], c_int),
        "ecgemm_set_stream": ([c_void_p, c_void_p], c_int),
        "ecgemm_set_mode": ([c_void_p, c_int], c_int),
        "ecgemm_get_mode": ([c_void_p, ctypes.POINTER(c_int)], c_int),
        "ecgemm_set_pointer_mode": ([c_void_p, c_int], c_int),
        "ecgemm_get_workspace_size": ([c_void_p, c_int, c_int, c_int, ctypes.POINTER(c_size_t)], c_int),
        "ecgemm_get_workspace_size_64": ([c_void_p, c_int, c_int] + [i64] * 7 + [c_int, ctypes.POINTER(c_size_t)],
                                         c_int),
        "ecgemm_set_workspace": ([c_void_p, c_void_p, c_size_t], c_int),
        "ecgemm_set_workspace_limit": ([c_void_p, c_size_t], c_int),
        "ecgemm_get_workspace_limit": ([c_void_p, ctypes.POINTER(c_size_t)], c_int),
        "ecgemm_release_workspace": ([c_void_p], c_int),
        "ecgemm_get_mode_name": ([c_int], ctypes.c_char_p),
        "ecgemm_get_mode_by_name": ([ctypes.c_char_p, ctypes.POINTER(c_int)], c_int),
        "ecgemm_internal_plan_string": ([c_void_p, c_int, c_int] + [i64] * 7 + [c_int, ctypes.c_char_p, c_size_t],
                                        c_int),
        "ecgemm_internal_workspace_usage": ([c_int, c_int] + [ctypes.POINTER(c_size_t)] * 4, c_int),
        "ecgemm_sgemm": ([c_void_p, c_int, c_int, c_int, c_int, c_int, fptr, fptr, c_int,
                          fptr, c_int, fptr, fptr, c_int], c_int),
        "ecgemm_sgemm_64": ([c_void_p, c_int, c_int, i64, i64, i64, fptr, fptr, i64, fptr, i64, fptr,
                             fptr, i64], c_int),
        "ecgemm_sgemm_strided_batched": ([c_void_p, c_int, c_int, c_int, c_int, c_int, fptr, fptr, c_int, ll,
                                          fptr, c_int, ll, fptr, fptr, c_int, ll, c_int], c_int),
        "ecgemm_sgemm_strided_batched_64": ([c_void_p, c_int, c_int, i64, i64, i64, fptr, fptr, i64, i64,
                                             fptr, i64, i64, fptr, fptr, i64, i64, i64], c_int),
        "ecgemm_sgemm_batched": ([c_void_p, c_int, c_int, c_int, c_int, c_int, fptr, fptr, c_int, fptr,
                                  c_int, fptr, fptr, c_int, c_int], c_int),
        "ecgemm_sgemm_batched_64": ([c_void_p, c_int, c_int, i64, i64, i64, fptr, fptr, i64, fptr, i64,
                                     fptr, fptr, i64, i64], c_int),
        "ecgemm_internal_validate": ([c_int] * 8, c_int),
        "ecgemm_internal_validate_batch": ([i64] * 7 + [c_int], c_int),
        "ecgemm_internal_split_host": ([c_int, fptr, fptr, fptr, c_size_t], c_int),
        "ecgemm_internal_split_device": ([c_int, fptr, fptr, fptr, c_size_t], c_int),
    }
    for name, (args, res) in sig.items():
        # An older libecgemm (ECGEMM_LIBRARY, for A/B runs against a previous build) lacks
        # the newer entry points: those stay unset, and a test that calls one fails there.
        fn = getattr(lib, name, None)
        if fn is not None:
            fn.argtypes, fn.restype = args, res
    return lib
