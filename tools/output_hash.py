"""`device.py hash`: one SHA-256 per output of a fixed, seeded list of calls through the
C ABI, so that two builds can be compared bit for bit (run it against each library,
ECGEMM_LIBRARY=... for the other one, and diff the two files).

The list covers every kernel family x every mode that family runs x four transpose
pairs and one padded (unaligned) leading dimension x every batch form the family takes
x a long and a short k.
The pins in FAMILIES choose the family of each case; ECGEMM_VERBOSE=1 makes libecgemm
print each call's plan on stderr, which shows the family that actually ran.
A family the GPU or the build lacks falls back (fused_wgmma without an sm_90a image runs
on planes or fused_mma), so compare builds made for the same architectures, on the same
GPU. Results are deterministic run to run (every split-K reduction adds in a fixed
order), so any difference is a change in the code.

Each case's inputs come from a seed derived from its name: adding a case leaves every
other case's inputs as they were. The digest covers the whole C buffer, padding rows
included, so a build that writes them differs; the padding of A and B holds NaN, so a
build that reads it differs too.
"""
from __future__ import annotations

import ctypes
import hashlib
import os
import zlib
from dataclasses import dataclass
from typing import Dict, Iterator, List, Optional, Sequence, Tuple

import numpy as np

from tools._common import FAMILY_PINS, PIN_VARIABLES, out_dir
from _capi import MODES, OP, STATUS, load, library_path  # tests/_capi.py, on sys.path via _common

# The Tensor Core methods and the modes that FP32 kernels serve (ecgemm.h).
TC_MODES = ("tf32tf32", "halfhalf", "tf32", "fp16", "markidis", "auto")
FP32_CLASS_MODES = ("fp32", "tf32tf32", "halfhalf", "auto")
FORMS = ("single", "strided", "pointers")
# (transa, transb, padding of every leading dimension); +3 floats makes rows unaligned.
LAYOUTS = (("N", "N", 0), ("N", "T", 0), ("T", "N", 0), ("T", "T", 0), ("N", "N", 3))
BATCH_COUNT = 3  # more than one product; the pointer form walks the blocks backwards
ALPHA, BETA = 0.75, -0.5  # beta != 0: C is read, so the epilogue's beta path is hashed too


@dataclass(frozen=True)
class Family:
    modes: Tuple[str, ...]
    forms: Tuple[str, ...]
    shapes: Tuple[Tuple[int, int, int], ...]  # (m, n, k): ragged against every tile
    pins: Dict[str, str]         # the environment that sends a call to this family (_common)


# Plain products never take the plane family in a batch, and the GEMV kernels take only
# unbatched products with one side of C at most 4 wide. Each family gets a long k, which
# the single products split (split-K), and a short one, which they do not.
SHAPES = ((200, 136, 1000), (300, 260, 100))
FAMILIES: Dict[str, Family] = {
    name: Family(modes, forms, shapes, FAMILY_PINS[name]) for name, modes, forms, shapes in (
        ("planes", TC_MODES, ("single",), SHAPES),
        ("fused_wgmma", TC_MODES, FORMS, SHAPES),
        ("fused_mma", TC_MODES, FORMS, SHAPES),
        ("simt", FP32_CLASS_MODES, FORMS, SHAPES),
        ("gemv", FP32_CLASS_MODES, ("single",), ((3, 517, 1000), (517, 2, 100))))}


@dataclass(frozen=True)
class Case:
    family: str
    mode: str
    transa: str
    transb: str
    pad: int
    form: str
    m: int
    n: int
    k: int

    @property
    def count(self) -> int:
        return 1 if self.form == "single" else BATCH_COUNT

    @property
    def name(self) -> str:
        layout = self.transa + self.transb + (f"+{self.pad}" if self.pad else "")
        form = self.form if self.form == "single" else f"{self.form}{self.count}"
        return f"{self.family}/{self.mode}/{layout}/{form}/m{self.m}n{self.n}k{self.k}"

    @property
    def seed(self) -> int:
        return zlib.crc32(self.name.encode())

    @property
    def pins(self) -> Dict[str, str]:
        return FAMILIES[self.family].pins

    def stored(self, operand: str) -> Tuple[int, int, int]:
        """(rows, columns, leading dimension) of A, B or C as stored, column-major."""
        if operand == "a":
            rows, cols = (self.m, self.k) if self.transa == "N" else (self.k, self.m)
        elif operand == "b":
            rows, cols = (self.k, self.n) if self.transb == "N" else (self.n, self.k)
        else:
            rows, cols = self.m, self.n
        return rows, cols, rows + self.pad


def cases(families: Optional[Sequence[str]] = None, modes: Optional[Sequence[str]] = None) -> List[Case]:
    """The fixed case list, optionally narrowed to some families and modes."""
    for name, known, what in ((families, FAMILIES, "family"), (modes, MODES, "mode")):
        unknown = sorted(set(name or ()) - set(known))
        if unknown:
            raise ValueError(f"unknown {what} {', '.join(unknown)}; known: {', '.join(known)}")
    out = []
    for family, spec in FAMILIES.items():
        if families and family not in families:
            continue
        for mode in spec.modes:
            if modes and mode not in modes:
                continue
            for ta, tb, pad in LAYOUTS:
                for form in spec.forms:
                    for shape in spec.shapes:
                        out.append(Case(family, mode, ta, tb, pad, form, *shape))
    return out


def inputs(case: Case) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A, B and C of `case` as flat float32 arrays: `count` column-major blocks each,
    uniform on [-1, 1), padding rows NaN. Deterministic in the case's name."""
    rng = np.random.default_rng(case.seed)

    def block(operand: str) -> np.ndarray:
        rows, cols, ld = case.stored(operand)
        x = rng.uniform(-1.0, 1.0, size=(case.count, cols, ld)).astype(np.float32)
        x[:, :, rows:] = np.nan
        return x.reshape(-1)

    return block("a"), block("b"), block("c")


def digest(c: np.ndarray) -> str:
    return hashlib.sha256(np.ascontiguousarray(c).tobytes()).hexdigest()


class DeviceMemory:
    """Device buffers through libecgemm's own helpers (no CUDA package needed), freed together."""

    def __init__(self, lib: ctypes.CDLL):
        self.lib, self.pointers = lib, []
        vp, size = ctypes.c_void_p, ctypes.c_size_t
        for fn, args in ((lib.ecgemm_device_malloc, [ctypes.POINTER(vp), size]),
                         (lib.ecgemm_device_free, [vp]),
                         (lib.ecgemm_memcpy_to_device, [vp, vp, size]),
                         (lib.ecgemm_memcpy_to_host, [vp, vp, size]),
                         (lib.ecgemm_device_synchronize, [])):
            fn.argtypes, fn.restype = args, ctypes.c_int

    def upload(self, host: np.ndarray) -> int:
        ptr = ctypes.c_void_p()
        if self.lib.ecgemm_device_malloc(ctypes.byref(ptr), max(host.nbytes, 1)) != 0:
            raise MemoryError(f"ecgemm_device_malloc({host.nbytes}) failed")
        self.pointers.append(ptr.value)
        if self.lib.ecgemm_memcpy_to_device(ptr.value, host.ctypes.data, host.nbytes) != 0:
            raise RuntimeError("ecgemm_memcpy_to_device failed")
        return ptr.value

    def download(self, ptr: int, like: np.ndarray) -> np.ndarray:
        out = np.empty_like(like)
        if self.lib.ecgemm_memcpy_to_host(out.ctypes.data, ptr, out.nbytes) != 0:
            raise RuntimeError("ecgemm_memcpy_to_host failed")
        return out

    def free(self) -> None:
        for ptr in self.pointers:
            self.lib.ecgemm_device_free(ptr)
        self.pointers = []


def _call(lib, handle, case: Case, mem: DeviceMemory, a: int, b: int, c: int) -> int:
    _, cols_a, lda = case.stored("a")
    _, cols_b, ldb = case.stored("b")
    _, cols_c, ldc = case.stored("c")
    alpha, beta = ctypes.c_float(ALPHA), ctypes.c_float(BETA)
    head = (handle, OP[case.transa], OP[case.transb], case.m, case.n, case.k, ctypes.addressof(alpha))
    if case.form == "single":
        return lib.ecgemm_sgemm(*head, a, lda, b, ldb, ctypes.addressof(beta), c, ldc)
    strides = (lda * cols_a, ldb * cols_b, ldc * cols_c)
    if case.form == "strided":
        return lib.ecgemm_sgemm_strided_batched(*head, a, lda, strides[0], b, ldb, strides[1],
                                                ctypes.addressof(beta), c, ldc, strides[2], case.count)
    # Pointer arrays (in device memory, as cuBLAS expects): product z takes block count-1-z.
    arrays = [mem.upload(np.array([base + 4 * s * (case.count - 1 - z) for z in range(case.count)],
                                  dtype=np.uint64))
              for base, s in zip((a, b, c), strides)]
    return lib.ecgemm_sgemm_batched(*head, arrays[0], lda, arrays[1], ldb, ctypes.addressof(beta),
                                    arrays[2], ldc, case.count)


def run_cases(case_list: Sequence[Case], lib: Optional[ctypes.CDLL] = None
              ) -> Iterator[Tuple[Case, int, Optional[np.ndarray]]]:
    """(case, status, C as the device left it) per case; C is None when the call failed.
    The route pins are set per case and the caller's environment is restored after."""
    lib = lib or load()
    handle = ctypes.c_void_p()
    status = lib.ecgemm_create(ctypes.byref(handle))
    if status != 0:
        raise RuntimeError(f"ecgemm_create failed with status {status}")
    saved = {name: os.environ.get(name) for name in PIN_VARIABLES}
    mem = DeviceMemory(lib)
    try:
        for case in case_list:
            for name in PIN_VARIABLES:
                os.environ.pop(name, None)
            os.environ.update(case.pins)  # libecgemm reads the pins per call
            lib.ecgemm_set_mode(handle, MODES[case.mode])
            a, b, c = inputs(case)
            c_dev = mem.upload(c)
            status = _call(lib, handle, case, mem, mem.upload(a), mem.upload(b), c_dev)
            if status == 0 and lib.ecgemm_device_synchronize() != 0:
                status = STATUS["EXECUTION_FAILED"]
            yield case, status, mem.download(c_dev, c) if status == 0 else None
            mem.free()
    finally:
        mem.free()
        for name, value in saved.items():
            os.environ.pop(name, None)
            if value is not None:
                os.environ[name] = value
        lib.ecgemm_destroy(handle)


def add_arguments(p) -> None:
    p.add_argument("--family", default="", help=f"comma-separated subset of: {', '.join(FAMILIES)}")
    p.add_argument("--mode", default="", help=f"comma-separated subset of: {', '.join(MODES)}")
    p.add_argument("--list", action="store_true", help="print the case names and exit (no GPU)")
    p.add_argument("--log", default="hash.txt", help="file under $OUT for the digests (default hash.txt)")


def _names(text: str) -> Optional[List[str]]:
    return [s.strip() for s in text.split(",") if s.strip()] or None


def run(args) -> int:
    """Prints `<sha256>  <case>` per case to $OUT/<log>, and a summary with one digest of
    all of them. Exit status 1 when a call failed."""
    selected = cases(_names(args.family), _names(args.mode))
    if args.list:
        print("\n".join(case.name for case in selected))
        return 0
    status_name = {v: k for k, v in STATUS.items()}
    lines, failed = [f"# library {library_path()}"], 0
    for case, status, c in run_cases(selected):
        if status == 0:
            lines.append(f"{digest(c)}  {case.name}")
        else:
            failed += 1
            lines.append(f"{'status=' + status_name.get(status, str(status)):64s}  {case.name}")
    text = "\n".join(lines) + "\n"
    path = out_dir() / args.log
    path.write_text(text)
    overall = hashlib.sha256("\n".join(lines[1:]).encode()).hexdigest()
    print(f"{len(selected)} cases, {failed} failed; all digests: {overall}\nper case: {path}")
    return 1 if failed else 0
