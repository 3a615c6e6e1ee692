"""GEMMul8 as an in-process peer: SGEMM emulated by Ozaki scheme II on INT8 Tensor Cores (RIKEN-RCCS/GEMMul8).

The library is built by tools/build_gemmul8.sh (GEMMul8's gemmul8.cu + tools/gemmul8_shim.cu, a C ABI over its
C++ API) into .peers/gemmul8/libgemmul8_ecgemm.so, or wherever ECGEMM_GEMMUL8_LIB points. Where it is absent the
gemmul8 methods are skipped with the reason, as XLA's are without JAX.

Each call runs gemmul8::gemm<float> (INT8 backend, `fastmode` on or off, `num_moduli` moduli) on torch's current
stream through a cuBLAS handle of its own, with one workspace per shape from torch's allocator, shared by the
calls bound to that shape and freed with the last of them.
GEMMul8 synchronises its stream between phases (its phase timers), so a call returns with its product done, and
its timed GPU time includes those host round-trips, as for any user of the library.

`python -m bench.gemmul8_peer [N]` checks the peer against FP64 on every operand layout and at N³ (1024).
"""
import ctypes
import importlib.util
import os
import weakref
from pathlib import Path
from typing import NamedTuple

REPO_ROOT = Path(__file__).resolve().parents[1]
LIB_ENV = "ECGEMM_GEMMUL8_LIB"
LIB_NAME = "libgemmul8_ecgemm.so"
DEFAULT_LIB = Path(".peers") / "gemmul8" / LIB_NAME       # relative to the repository root
MODULI = (6, 7, 8, 9)                 # the bench's sweep (issue 26): around SGEMM's accuracy
MODES = {"fast": True, "accu": False}  # name part -> GEMMul8's fastmode
FP32_MODULI = range(2, 14)            # what GEMMul8 accepts for FP32
MAX_K = 1 << 17                       # INT8 products summed in INT32: GEMMul8's documented limit on k
CUBLAS_SONAMES = ("libcublas.so.13", "libcublasLt.so.13")   # what the library was linked against
OP_N, OP_T = 0, 1
PHASES = ("scaling", "int8_gemms", "mod_reduction", "accumulate_unscale")   # GEMMul8's phase timers
SANITY_SHAPE = (37, 53, 29)           # odd sizes, every layout: catches a marshalling or ABI mistake at load
SANITY_LIMIT = 1e-3                   # a wrong product (layout, ABI) is O(1); accuracy is bench/guards.py's job


class Gemmul8Error(RuntimeError):
    pass


def method_name(mode, moduli):
    return f"gemmul8_{mode}_{moduli}"


def parse_name(name):
    """(fastmode, num_moduli) of a catalog name such as gemmul8_fast_7 or gemmul8_accu_8."""
    family, mode, moduli = name.split("_")
    if family != "gemmul8" or mode not in MODES or int(moduli) not in FP32_MODULI:
        raise ValueError(f"not a GEMMul8 method name: {name!r}")
    return MODES[mode], int(moduli)


def library_path(environ=None):
    environ = os.environ if environ is None else environ
    path = Path(environ.get(LIB_ENV) or DEFAULT_LIB)
    return path if path.is_absolute() else REPO_ROOT / path


class GemmArgs(NamedTuple):
    """GEMMul8's column-major arguments; its A is the bench's B and its B the bench's A (see gemm_args)."""
    op_a: int
    op_b: int
    m: int
    n: int
    k: int
    lda: int
    ldb: int
    ldc: int


def _operand(shape, stride):
    """(op, ld) for a row-major-indexed rows×cols matrix read as its transpose in column-major terms:
    row-major storage is that transpose already (op N, ld = row stride); column-major storage is the matrix
    itself (op T, ld = column stride). A dimension of size 1 leaves its stride free."""
    rows, cols = shape
    s0, s1 = stride
    if s1 == 1 or cols == 1:
        ld = s0 if rows > 1 else max(s0, cols)
        if ld >= max(1, cols):
            return OP_N, ld
    if s0 == 1 or rows == 1:
        ld = s1 if cols > 1 else max(s1, rows)
        if ld >= max(1, rows):
            return OP_T, ld
    raise ValueError(f"GEMMul8 needs one unit stride: shape {tuple(shape)}, strides {tuple(stride)}")


def gemm_args(a_shape, a_stride, b_shape, b_stride, c_shape, c_stride):
    """GEMMul8's arguments for C = A·B on row-major-indexed 2-D operands (torch's shapes and strides).

    GEMMul8 is column-major (cuBLAS conventions); a row-major C (m×n) is the column-major Cᵀ (n×m), and
    Cᵀ = Bᵀ·Aᵀ: GEMMul8 gets m' = n, n' = m, its A is the bench's B and its B the bench's A."""
    (m, k), (k2, n) = a_shape, b_shape
    if k2 != k or tuple(c_shape) != (m, n):
        raise ValueError(f"shapes do not chain: A {tuple(a_shape)}, B {tuple(b_shape)}, C {tuple(c_shape)}")
    if min(m, n, k) < 1:
        raise ValueError(f"empty product {m}×{k}×{n}")
    if k > MAX_K:
        raise ValueError(f"k = {k} > 2^17, GEMMul8's limit (INT8 products summed in INT32)")
    op_c, ldc = _operand(c_shape, c_stride)
    if op_c != OP_N:
        raise ValueError(f"GEMMul8 peer writes row-major outputs only: C strides {tuple(c_stride)}")
    op_a, lda = _operand(b_shape, b_stride)
    op_b, ldb = _operand(a_shape, a_stride)
    return GemmArgs(op_a, op_b, n, m, k, lda, ldb, ldc)


def _wheel_lib_dirs():
    """lib/ folders of the nvidia-* wheels (torch's cuBLAS lives there)."""
    spec = importlib.util.find_spec("nvidia")
    roots = list(spec.submodule_search_locations) if spec and spec.submodule_search_locations else []
    return [Path(r) / sub / "lib" for r in roots for sub in ("cu13", "cublas")]


def _load_cublas():
    """Load the cuBLAS the library was linked against, globally, before it: the copy torch already loaded (the
    name matches it), else the nvidia wheel's. GEMMul8 then runs on the same cuBLAS as torch's SGEMM."""
    for soname in CUBLAS_SONAMES:
        candidates = [soname] + [str(d / soname) for d in _wheel_lib_dirs() if (d / soname).is_file()]
        for candidate in candidates:
            try:
                ctypes.CDLL(candidate, mode=ctypes.RTLD_GLOBAL)
                break
            except OSError:
                continue
        else:
            raise OSError(f"{soname} not found (GEMMul8 was linked against it; install torch's nvidia-cublas wheel)")


def _declare(lib):
    c_size, c_void, c_int = ctypes.c_size_t, ctypes.c_void_p, ctypes.c_int
    lib.ecgemm_gemmul8_work_size.argtypes = [c_size, c_size, c_size, ctypes.c_uint]
    lib.ecgemm_gemmul8_work_size.restype = c_size
    lib.ecgemm_gemmul8_create.argtypes = [ctypes.POINTER(c_void)]
    lib.ecgemm_gemmul8_destroy.argtypes = [c_void]
    lib.ecgemm_gemmul8_sgemm.argtypes = [
        c_void, c_void, c_int, c_int, c_size, c_size, c_size,      # handle, stream, op_a, op_b, m, n, k
        ctypes.c_float, c_void, c_size, c_void, c_size,            # alpha, A, lda, B, ldb
        ctypes.c_float, c_void, c_size,                            # beta, C, ldc
        ctypes.c_uint, c_int, c_void, ctypes.POINTER(ctypes.c_double)]   # num_moduli, fastmode, work, timers
    for fn in (lib.ecgemm_gemmul8_create, lib.ecgemm_gemmul8_destroy, lib.ecgemm_gemmul8_sgemm):
        fn.restype = c_int


def status_text(code):
    if code < 0:
        return "C++ exception inside GEMMul8"
    if code >= 1000:
        return f"CUDA error {code - 1000}"
    return f"cublasSetStream status {code}"


class Gemmul8:
    """The loaded library, one cuBLAS handle, and a workspace for each shape that bound calls still use."""

    def __init__(self, torch, path=None, sanity=True):
        self.torch = torch
        self.path = Path(path) if path else library_path()
        if not self.path.is_file():
            raise FileNotFoundError(f"{self.path} is absent (build it: tools/build_gemmul8.sh SRC; "
                                    f"or set {LIB_ENV})")
        _load_cublas()
        self.lib = ctypes.CDLL(str(self.path))
        _declare(self.lib)
        commit_file = self.path.parent / "SOURCE_COMMIT"
        self.commit = commit_file.read_text().strip()[:12] if commit_file.is_file() else "unknown"
        self.handle = ctypes.c_void_p()
        code = self.lib.ecgemm_gemmul8_create(ctypes.byref(self.handle))
        if code:
            raise Gemmul8Error(f"cublasCreate failed with status {code}")
        self.phases_ns = (ctypes.c_double * len(PHASES))()   # the last call's phase times
        self._work = weakref.WeakValueDictionary()           # (m, n, k) -> workspace held by bound calls
        if sanity:
            self.sanity_check()

    def describe(self):
        return (f"GEMMul8 {self.commit}, INT8 backend, own cuBLAS handle on torch's stream; synchronises the "
                f"stream between its phases, so times include those host round-trips")

    def workspace(self, m, n, k, num_moduli):
        """The shape's workspace, sized for the sweep's largest moduli count at least: shared by every call bound
        to the shape (all run on one stream, one after another), and returned to torch's allocator, which keeps
        the block for the next method, when the last of them is dropped (so none outlives its section)."""
        size = self.lib.ecgemm_gemmul8_work_size(m, n, k, max(num_moduli, *MODULI))
        work = self._work.get((m, n, k))
        if work is None or work.numel() < size:
            work = self._work[(m, n, k)] = self.torch.empty(size, dtype=self.torch.uint8, device="cuda")
        return work

    def bind(self, a, b, out, num_moduli, fastmode):
        """call() writing a @ b into out (float32 CUDA tensors) with GEMMul8, on torch's current stream."""
        torch = self.torch
        if num_moduli not in FP32_MODULI:
            raise ValueError(f"num_moduli = {num_moduli}: GEMMul8 takes 2..13 for FP32")
        for t in (a, b, out):
            if t.dtype != torch.float32 or not t.is_cuda or t.dim() != 2:
                raise TypeError("GEMMul8 peer: 2-D float32 CUDA tensors only")
        g = gemm_args(a.shape, a.stride(), b.shape, b.stride(), out.shape, out.stride())
        work = self.workspace(g.m, g.n, g.k, num_moduli)
        fn, handle, timers = self.lib.ecgemm_gemmul8_sgemm, self.handle, self.phases_ns

        def call():   # holds a, b, out and work: their memory outlives every call of it
            stream = torch.cuda.current_stream().cuda_stream
            code = fn(handle, stream, g.op_a, g.op_b, g.m, g.n, g.k, 1.0, b.data_ptr(), g.lda, a.data_ptr(), g.ldb,
                      0.0, out.data_ptr(), g.ldc, num_moduli, int(fastmode), work.data_ptr(), timers)
            if code:
                raise Gemmul8Error(f"GEMMul8 sgemm: {status_text(code)}")
        return call

    def sanity_check(self):
        """Every operand layout at an odd size against an FP64 product; raises when a residual is wrong."""
        for (fast, moduli), layout, res in check_layouts(self, SANITY_SHAPE, ((True, 9), (False, 9))):
            if not res < SANITY_LIMIT:   # NaN fails too
                raise Gemmul8Error(f"sanity check: residual {res:.2e} at {SANITY_SHAPE} ({layout}, "
                                   f"{'fast' if fast else 'accurate'}, {moduli} moduli)")

    def close(self):
        if self.handle:
            self.torch.cuda.synchronize()
            self.lib.ecgemm_gemmul8_destroy(self.handle)
            self.handle = ctypes.c_void_p()


def _layouts(x):
    """x (row-major) and the same values stored column-major (a transposed view of a contiguous transpose)."""
    return {"row": x, "col": x.t().contiguous().t()}


def check_layouts(peer, shape, settings):
    """[((fastmode, moduli), 'A row, B col', residual)] for every operand layout and setting."""
    from bench.accuracy import fp64_reference, relative_residual
    torch = peer.torch
    m, k, n = shape
    gen = torch.Generator(device="cuda").manual_seed(26)
    a = torch.rand((m, k), device="cuda", generator=gen) * 2 - 1
    b = torch.rand((k, n), device="cuda", generator=gen) * 2 - 1
    ref = fp64_reference(torch, a, b)
    found = []
    for la, aa in _layouts(a).items():
        for lb, bb in _layouts(b).items():
            for fast, moduli in settings:
                out = torch.full((m, n), float("nan"), device="cuda")
                peer.bind(aa, bb, out, moduli, fast)()
                torch.cuda.synchronize()
                found.append(((fast, moduli), f"A {la}, B {lb}", relative_residual(torch, out, ref)))
    return found


def main(argv=None):
    """Smoke test on a GPU: layouts at an odd size, then every mode and moduli count at n³ beside SGEMM."""
    import sys

    import torch

    from bench import inputs
    from bench.accuracy import fp64_reference, relative_residual, to_device
    from bench.methods import set_tf32
    argv = sys.argv[1:] if argv is None else argv
    n = int(argv[0]) if argv else 1024
    peer = Gemmul8(torch, sanity=False)
    print(f"{peer.path}: {peer.describe()}")
    bad = 0
    settings = [(fast, moduli) for fast in (True, False) for moduli in MODULI]
    for (fast, moduli), layout, res in check_layouts(peer, SANITY_SHAPE, settings):
        ok = res < SANITY_LIMIT
        bad += not ok
        print(f"{'x'.join(map(str, SANITY_SHAPE))} {layout}: {'fast' if fast else 'accu'} {moduli}  "
              f"residual {res:.2e}{'' if ok else '  WRONG'}")
    a, b = (to_device(torch, x) for x in inputs.throughput_pair(n, n, n))
    ref = fp64_reference(torch, a, b)
    out = torch.empty((n, n), device="cuda")
    set_tf32(torch, False)
    torch.matmul(a, b, out=out)
    print(f"{n}³ cuBLAS SGEMM residual {relative_residual(torch, out, ref):.2e}")
    for fast, moduli in settings:
        out.fill_(float("nan"))
        peer.bind(a, b, out, moduli, fast)()
        torch.cuda.synchronize()
        res = relative_residual(torch, out, ref)
        bad += not res < SANITY_LIMIT
        phases = ", ".join(f"{p} {t / 1e3:.0f} µs" for p, t in zip(PHASES, peer.phases_ns))
        print(f"{n}³ gemmul8 {'fast' if fast else 'accu'} {moduli}: residual {res:.2e}  ({phases})")
    peer.close()
    print("smoke: " + ("ok" if not bad else f"{bad} WRONG"))
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
