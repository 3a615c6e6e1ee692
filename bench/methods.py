"""The methods under test: what each promises, and how each computes C = A·B into a preallocated output.

In-process methods work on float32 torch tensors on the current CUDA stream and allocate nothing per call.
XLA's presets run in a subprocess (bench/xla_worker.py) and only their metadata lives here.
GEMMul8 (bench/gemmul8_peer.py) runs in-process from a library built by tools/build_gemmul8.sh, where present.
"""
import importlib.util
from dataclasses import dataclass

from bench import gemmul8_peer

# What a method promises about its residual (bench/guards.py checks the promise on every case):
FP32 = "fp32"                       # FP32-accurate: within an order of magnitude of cuBLAS SGEMM
ONE_PASS = "one-pass"               # one TF32/FP16 product: ~2^-12 relative error, by design
CORRECTED_FP16 = "corrected-fp16"   # Markidis: FP16 hi/lo, accumulated in the Tensor Core; better than one pass

SGEMM = "cublas_sgemm"              # the denominator of every speed ratio


@dataclass(frozen=True)
class MethodInfo:
    name: str
    label: str
    family: str            # ecgemm | cublas | triton | xla | gemmul8
    promise: str
    fp16_operands: bool    # operands pass through FP16: the paper's exponent types 2–4 are out of its range
    detail: str
    opt_in: bool = False   # run only when --methods names it exactly (a variant, not a peer)

    def as_dict(self):
        return dict(self.__dict__)


def _ecgemm(mode, promise, fp16, detail):
    return MethodInfo(f"ecgemm_{mode}", f"ecgemm {mode}", "ecgemm", promise, fp16, detail)


# The fused wgmma family (operands split inside the kernel), pinned on every shape, beside the default
# route (libecgemm/planner.cpp keeps it behind the plane family until it is measured faster).
FUSED_SUFFIX = "_fused"
FUSED_ENV = {"ECGEMM_FAMILY": "fused_wgmma"}


def _ecgemm_fused(mode, fp16):
    return MethodInfo(f"ecgemm_{mode}{FUSED_SUFFIX}", f"ecgemm {mode} (fused TC)", "ecgemm", FP32, fp16,
                      "the fused wgmma family on every shape (ECGEMM_FAMILY=fused_wgmma)", opt_in=True)


def _gemmul8(mode, moduli):
    scaling = "fast" if gemmul8_peer.MODES[mode] else "accurate"
    return MethodInfo(gemmul8_peer.method_name(mode, moduli), f"GEMMul8 {scaling}, {moduli} moduli", "gemmul8",
                      FP32, False, f"Ozaki scheme II on INT8 Tensor Cores, {moduli} moduli, {scaling} scaling")


CATALOG = (
    MethodInfo(SGEMM, "cuBLAS SGEMM", "cublas", FP32, False, "torch.matmul, FP32 SIMT (fp32_precision ieee)"),
    _ecgemm("tf32tf32", FP32, False, "TF32 hi/lo, 3 products, hi·hi promoted with RN"),
    _ecgemm("halfhalf", FP32, True, "FP16 hi/lo·2^11, 3 products, hi·hi promoted with RN"),
    _ecgemm("auto", FP32, False, "halfhalf on rows/columns scaled by 2^s into FP16's window, else tf32tf32"),
    _ecgemm("fp32", FP32, False, "in-library FP32 SIMT kernel"),
    _ecgemm("tf32", ONE_PASS, False, "one TF32 product"),
    _ecgemm("fp16", ONE_PASS, True, "one FP16 product"),
    _ecgemm("markidis", CORRECTED_FP16, True, "Markidis: FP16 hi/lo, 4 products in the Tensor Core"),
    _ecgemm_fused("tf32tf32", False),
    _ecgemm_fused("halfhalf", True),
    MethodInfo("cublas_tf32", "cuBLAS TF32 1-pass", "cublas", ONE_PASS, False, "torch.matmul, fp32_precision tf32"),
    MethodInfo("cublas_fp16", "cuBLAS FP16 1-pass", "cublas", ONE_PASS, True,
               "casts to half (timed) + cuBLAS FP16 GEMM with FP32 accumulation; output: see variant"),
    MethodInfo("triton_tf32x3", "Triton tf32x3", "triton", FP32, False, "plain Triton kernel, tl.dot tf32x3"),
    MethodInfo("xla_tf32x3", "XLA TF32_TF32_F32_X3", "xla", FP32, False, "jnp.matmul, DotAlgorithmPreset"),
    MethodInfo("xla_bf16x6", "XLA BF16_BF16_F32_X6", "xla", FP32, False, "jnp.matmul, DotAlgorithmPreset"),
) + tuple(_gemmul8(mode, moduli) for mode in gemmul8_peer.MODES for moduli in gemmul8_peer.MODULI)
BY_NAME = {m.name: m for m in CATALOG}
XLA_PRESETS = {"xla_tf32x3": "TF32_TF32_F32_X3", "xla_bf16x6": "BF16_BF16_F32_X6"}


def select(patterns):
    """Catalog entries whose name contains any of the comma-separated patterns (all when empty); SGEMM always,
    since every ratio needs it; opt-in variants only when a pattern is their exact name."""
    wanted = [p.strip() for p in (patterns or "").split(",") if p.strip()]
    if not wanted:
        return [m for m in CATALOG if not m.opt_in]
    return [m for m in CATALOG
            if m.name == SGEMM or m.name in wanted or (not m.opt_in and any(p in m.name for p in wanted))]


def set_tf32(torch, enabled):
    """Allow or forbid TF32 in torch's FP32 matmuls (the new API where it exists: mixing the two raises)."""
    matmul = torch.backends.cuda.matmul
    if hasattr(matmul, "fp32_precision"):
        matmul.fp32_precision = "tf32" if enabled else "ieee"
    else:
        matmul.allow_tf32 = enabled


class InProcess:
    """Binds the in-process methods to operands: bind(name, a, b, out) -> call() writing a @ b into out."""

    def __init__(self, torch, infos):
        self.torch = torch
        self.reasons = {}          # name -> why it is unavailable
        self.variants = {}         # name -> how it was run, where more than one way exists
        self._binders = {}
        self._ecgemm = None
        self._gemmul8 = None       # the loaded peer, or the exception that loading it raised
        for info in infos:
            if info.family == "xla":
                continue
            try:
                self._binders[info.name] = self._binder(info)
            except Exception as exc:  # noqa: BLE001  (an unavailable peer is reported, not fatal)
                self.reasons[info.name] = f"{type(exc).__name__}: {exc}"

    @property
    def names(self):
        return list(self._binders)

    def bind(self, name, a, b, out):
        return self._binders[name](a, b, out)

    def close(self):
        """GEMMul8's cuBLAS handle and workspace; ecgemm's per-thread default handle lives as long as the thread."""
        if isinstance(self._gemmul8, gemmul8_peer.Gemmul8):
            self._gemmul8.close()

    def _binder(self, info):
        if info.name == SGEMM:
            return lambda a, b, out: self._torch_matmul(a, b, out, tf32=False)
        if info.name == "cublas_tf32":
            return lambda a, b, out: self._torch_matmul(a, b, out, tf32=True)
        if info.name == "cublas_fp16":
            self._half_in_float_out()
            return self._fp16_one_pass
        if info.family == "triton":
            from bench.triton_kernel import bind_matmul
            return bind_matmul
        if info.family == "ecgemm":
            # As a user calls it: the thread's default handle, PyTorch's current stream (the
            # one every method runs on), so that small shapes see the call path users get.
            ecgemm = self._ecgemm_module()
            mode = info.name[len("ecgemm_"):]
            fused = mode.endswith(FUSED_SUFFIX)
            mode = mode[:-len(FUSED_SUFFIX)] if fused else mode
            if mode not in ecgemm.MODES:
                raise LookupError(f"ecgemm.MODES has no {mode!r}")
            if not fused:
                return lambda a, b, out: (lambda: ecgemm.matmul(a, b, out=out, mode=mode))
            return lambda a, b, out: self._with_env(FUSED_ENV, lambda: ecgemm.matmul(a, b, out=out, mode=mode))
        if info.family == "gemmul8":
            peer = self._gemmul8_peer()
            fastmode, moduli = gemmul8_peer.parse_name(info.name)
            self.variants[info.name] = peer.describe()
            return lambda a, b, out: peer.bind(a, b, out, moduli, fastmode)
        raise LookupError(f"no in-process binder for {info.name}")

    def _gemmul8_peer(self):
        """Load the library once for all gemmul8 methods; where it is absent or fails its check, every one of
        them gets the same reason."""
        if self._gemmul8 is None:
            try:
                self._gemmul8 = gemmul8_peer.Gemmul8(self.torch)
            except Exception as exc:  # noqa: BLE001  (kept, and raised again for each gemmul8 method)
                self._gemmul8 = exc
        if isinstance(self._gemmul8, Exception):
            raise self._gemmul8
        return self._gemmul8

    @staticmethod
    def _with_env(env, fn):
        """A call that runs fn with `env` set (libecgemm reads its route switches per call) and then unset."""
        import os

        def call():
            os.environ.update(env)
            try:
                fn()
            finally:
                for key in env:
                    os.environ.pop(key, None)
        return call

    def _torch_matmul(self, a, b, out, tf32):
        torch = self.torch

        def call():
            set_tf32(torch, tf32)   # set on every call: the flag is global and other methods run in between
            torch.matmul(a, b, out=out)
        return call

    def _fp16_one_pass(self, a, b, out):
        """FP32 operands cast to half, one FP16 product with FP32 accumulation; the result is FP32 where torch
        offers mm(..., out_dtype=float32) (as ecgemm's fp16 mode), else half cast back (overflows past 65504)."""
        torch = self.torch
        a16 = torch.empty_like(a, dtype=torch.float16)
        b16 = torch.empty_like(b, dtype=torch.float16)
        if self._half_in_float_out():
            def call():
                a16.copy_(a)
                b16.copy_(b)
                torch.mm(a16, b16, torch.float32, out=out)
            return call
        c16 = torch.empty_like(out, dtype=torch.float16)

        def call():
            a16.copy_(a)
            b16.copy_(b)
            torch.matmul(a16, b16, out=c16)
            out.copy_(c16)
        return call

    def _half_in_float_out(self):
        """Whether torch.mm takes out_dtype=float32 for half operands (PyTorch >= 2.8 on CUDA); probed once."""
        if "cublas_fp16" not in self.variants:
            torch = self.torch
            x = torch.ones((16, 16), device="cuda", dtype=torch.float16)
            y = torch.empty((16, 16), device="cuda", dtype=torch.float32)
            try:
                torch.mm(x, x, torch.float32, out=y)
                ok = bool((y == 16).all())
            except (TypeError, RuntimeError):
                ok = False
            self.variants["cublas_fp16"] = "float32 output (torch.mm out_dtype)" if ok else "half output, cast back"
        return self.variants["cublas_fp16"].startswith("float32")

    def _ecgemm_module(self):
        if self._ecgemm is None:
            import ecgemm
            self._ecgemm = ecgemm
        return self._ecgemm


def jax_importable():
    return importlib.util.find_spec("jax") is not None
