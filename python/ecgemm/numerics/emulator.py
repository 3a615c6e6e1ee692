"""A CPU model of the Tensor Core and of each ecgemm mode built on it.

:func:`mma` is the paper's mma_rn / mma_rz: products exact, accumulated one by one
in an accumulator of FP32's range with `extra_bits` more significant bits that
truncates after every addition, then C added with round-to-nearest ("rn") or
toward zero ("rz", what the hardware does). :func:`gemm` runs a whole GEMM per
mode the way the kernels do (docs/numerics.md): hi·hi promoted by an FP32 RN add
outside the Tensor Core, the corrections in their own Tensor Core accumulator;
Markidis with all four products inside; plain FP32 as sequential FMAs. Two
hardware facts are modelled: a TF32 Tensor Core reads only the top 19 bits of an
operand, and Inf·0 is NaN inside it, so a non-finite hi·hi sum must stand alone
for special values to land where SGEMM puts them (docs/numerics.md, section 4).

Everything is vectorised over the output and any leading batch axes; only the k
loop is sequential, as an accumulator is.
"""

from __future__ import annotations

import numpy as np

from .._modes import MODES  # libecgemm's names, in ecgemmMode_t's order
from .auto import auto_choice, scaled_operands, unscale
from .rounding import FP16, FP32, accumulator_format, round_sum, round_to
from .split import LO_SCALE, split

_SPLIT_METHOD = {"tf32": "tf32", "tf32tf32": "tf32", "fp16": "half", "halfhalf": "half",
                 "markidis": "markidis"}
# k per MMA instruction: mma.sync m16n8k8 (TF32) and m16n8k16 (FP16).
TILE_K = {"tf32": 8, "tf32tf32": 8, "fp16": 16, "halfhalf": 16, "markidis": 16}
DEFAULT_EXTRA_BITS = 2  # "at least 2 extra bits" (Fasi et al.; the paper's 25-bit mantissa)
TF32_READ_MASK = 0xFFFFE000  # sign, exponent and the 10 fraction bits TF32 keeps


def _check_rounding(rounding: str) -> None:
    if rounding not in ("rn", "rz"):
        raise ValueError(f"rounding must be 'rn' (mma_rn) or 'rz' (mma_rz), got {rounding!r}")


def _mma64(a, b, c, rounding: str, acc_fmt):
    """mma on float64 arrays of representable values: (..., M, K) x (..., K, N) + C."""
    acc = np.zeros(np.broadcast_shapes(a.shape[:-1] + (1,), b.shape[:-2] + (1, b.shape[-1])))
    for kk in range(a.shape[-1]):
        with np.errstate(invalid="ignore"):  # Inf·0 is NaN, as in hardware
            product = a[..., :, kk, None] * b[..., None, kk, :]  # exact: <= 48 significant bits
        acc = round_sum(acc, product, acc_fmt, "rz")
    return round_sum(acc, c, FP32, rounding)


def mma(a, b, c, rounding: str = "rz", extra_bits: int = DEFAULT_EXTRA_BITS) -> np.ndarray:
    """D = A·B + C as a Tensor Core computes it (the paper's mma_rn / mma_rz).

    a (..., M, K), b (..., K, N), c (..., M, N): float32 values, a and b already in
    the Tensor Core's input format (FP16 or TF32 values). Returns float32 (..., M, N).
    """
    _check_rounding(rounding)
    a, b, c = (np.asarray(v, dtype=np.float64) for v in (a, b, c))
    if a.shape[-1] != b.shape[-2]:
        raise ValueError(f"mma: inner dimensions differ: {a.shape} x {b.shape}")
    return _mma64(a, b, c, rounding, accumulator_format(extra_bits)).astype(np.float32)


def _fp32_gemm(a, b):
    """Sequential FP32 FMAs over k, as the library's FP32 SIMT kernel does per output."""
    acc = np.zeros(np.broadcast_shapes(a.shape[:-1] + (1,), b.shape[:-2] + (1, b.shape[-1])))
    for kk in range(a.shape[-1]):
        with np.errstate(invalid="ignore"):
            product = a[..., :, kk, None] * b[..., None, kk, :]
        acc = round_sum(acc, product, FP32, "rn")
    return acc


def _as_read_by_tensor_core(part: np.ndarray, method: str) -> np.ndarray:
    """A TF32 Tensor Core reads the top 19 bits of each 32-bit operand, nothing else."""
    if method != "tf32":
        return part
    return (part.view(np.uint32) & np.uint32(TF32_READ_MASK)).view(np.float32)


def _promote_blocks(main, total, step, promote_block):
    """Two-level promotion: every `promote_block` k-steps the block's FP32 sum goes into
    `total` (one RN add) and the block restarts at 0. (main, total); 0 keeps one chain."""
    if promote_block and (step + 1) % promote_block == 0:
        return np.zeros_like(main), round_sum(total, main, FP32, "rn")
    return main, total


def _fast2sum_into(main, d, corr, scale):
    """fused_mma's compensated promotion (sm80/fragments.cuh, mma_products<M, true>): t = s + d,
    e = d - (t - s), each an FP32 round-to-nearest operation, then corr = fma(e, scale, corr).
    Returns (t, corr)."""
    with np.errstate(invalid="ignore"):  # Inf - Inf: main stands alone (the epilogue)
        t = round_sum(main, d, FP32, "rn")
        e = round_sum(d, -round_sum(t, -main, FP32, "rn"), FP32, "rn")
        return t, round_sum(corr, e * scale, FP32, "rn")


def _half_ulp_of(d):
    """Half an FP32 ulp of each value of d, signed like it (0 where d is 0 or not finite)."""
    with np.errstate(invalid="ignore"):
        _, e = np.frexp(np.where(np.isfinite(d), d, 0.0))  # d = f * 2**e, f in [0.5, 1)
        return np.where(np.isfinite(d) & (d != 0), np.sign(d) * np.ldexp(1.0, e - 25), 0.0)


def _tensor_core_gemm(a, b, mode, rounding, acc_fmt, tile_k, promote, promote_block=0,
                      compensate=False, half_ulp_offset=False):
    method = _SPLIT_METHOD[mode]
    with np.errstate(invalid="ignore"):  # widening a signalling NaN raises "invalid"
        a_hi, a_lo, b_hi, b_lo = (_as_read_by_tensor_core(part, method).astype(np.float64)
                                  for part in (*split(a, method), *split(b, method)))
    out_shape = np.broadcast_shapes(a.shape[:-1] + (1,), b.shape[:-2] + (1, b.shape[-1]))
    main = np.zeros(out_shape)
    corr = np.zeros(out_shape)
    zero = np.zeros(out_shape)
    total = np.zeros(out_shape)
    offset = np.zeros(out_shape)  # the hi·hi MMA's accumulator: 0, or half_ulp_offset's
    for step, k0 in enumerate(range(0, a.shape[-1], tile_k)):
        ks = slice(k0, k0 + tile_k)
        ah, bh = a_hi[..., :, ks], b_hi[..., ks, :]
        if mode == "markidis":  # the paper's order: lo·lo, lo·hi, hi·lo, hi·hi
            al, bl = a_lo[..., :, ks], b_lo[..., ks, :]
            for x, y in ((al, bl), (al, bh), (ah, bl), (ah, bh)):
                main = _mma64(x, y, main, rounding, acc_fmt)
        elif mode in ("tf32", "fp16"):
            main = _mma64(ah, bh, main, rounding, acc_fmt)
        else:
            al, bl = a_lo[..., :, ks], b_lo[..., ks, :]
            if compensate:  # lo·lo first, in corr's units: FP16's B lo scaled back by 2^-11 (HMUL2)
                bl_down = bl if method == "tf32" else round_to(bl / LO_SCALE[method], FP16, "rn")
                corr = _mma64(al, bl_down, corr, rounding, acc_fmt)
            corr = _mma64(al, bh, corr, rounding, acc_fmt)
            corr = _mma64(ah, bl, corr, rounding, acc_fmt)
            if compensate:
                d = _mma64(ah, bh, offset, rounding, acc_fmt)
                main, corr = _fast2sum_into(main, d, corr, LO_SCALE[method])
                if half_ulp_offset:
                    offset = _half_ulp_of(d)
            elif promote:  # zero accumulator in, FP32 round-to-nearest add outside
                main = round_sum(main, _mma64(ah, bh, zero, rounding, acc_fmt), FP32, "rn")
                main, total = _promote_blocks(main, total, step, promote_block)
            else:
                main = _mma64(ah, bh, main, rounding, acc_fmt)
    if promote_block:
        main = round_sum(total, main, FP32, "rn")
    if mode in ("tf32tf32", "halfhalf"):
        # `main + corr * scale` is one FMA in the kernel: one rounding of an exact sum. A
        # non-finite main (an Inf or NaN input) stands alone, as SGEMM would give it: the
        # corrections hold Inf·0 = NaN wherever the other operand's lo is 0 (e.g. Inf·1).
        with np.errstate(invalid="ignore"):
            corrected = round_sum(main, corr / LO_SCALE[method], FP32, "rn")
        main = np.where(np.isfinite(main), corrected, main)
    return main


def _epilogue(acc, alpha, beta, c):
    """alpha·acc + beta·C with BLAS's zero rules, as the kernels' store_epilogue."""
    alpha = float(np.float32(alpha))
    beta = float(np.float32(beta))
    ab = np.zeros_like(acc) if alpha == 0.0 else round_to(alpha * acc, FP32, "rn")
    if beta == 0.0:
        return ab
    with np.errstate(invalid="ignore"):
        return round_sum(ab, beta * np.asarray(c, dtype=np.float64), FP32, "rn")


def _auto_gemm(a, b, rounding, acc_fmt, tile_k, promote, promote_block, compensate,
               half_ulp_offset):
    """AUTO (auto.py): halfhalf's (or tf32tf32's) products of the scaled operands, scaled back."""
    if a.ndim != 2 or b.ndim != 2:
        raise ValueError("mode 'auto' is modelled for 2-D operands")
    choice = auto_choice(a, b)
    a_s, b_s = scaled_operands(a, b, choice)
    acc = _tensor_core_gemm(a_s, b_s, choice.mode, rounding, acc_fmt, tile_k or TILE_K[choice.mode],
                            promote, promote_block, compensate, half_ulp_offset)
    return unscale(acc, choice).astype(np.float64)


def gemm(a, b, mode: str, *, alpha: float = 1.0, beta: float = 0.0, c=None,
         rounding: str = "rz", extra_bits: int = DEFAULT_EXTRA_BITS, tile_k: int | None = None,
         promote: bool = True, promote_block: int = 0, compensate: bool = False,
         half_ulp_offset: bool = False) -> np.ndarray:
    """alpha · a @ b + beta · c computed as `mode` computes it on a Tensor Core.

    a (..., M, K) and b (..., K, N) float32. mode: one of MODES. rounding: the Tensor
    Core's accumulator rounding, "rz" as in hardware or "rn" (the paper's mma_rn).
    tile_k: k per MMA (default TILE_K[mode]). promote=False accumulates hi·hi inside the
    Tensor Core too (the naive corrected GEMM the paper improves on). promote_block > 0:
    the promoted hi·hi sums restart every `promote_block` k-steps, each block's sum added
    to a second FP32 accumulator (two-level; the kernels keep one chain). compensate=True:
    fused_mma's 32-wide tile (docs/numerics.md section 3): each k-step's hi·hi sum joins the
    promoted sum by Fast2Sum, its error into the correction, and lo·lo joins the correction
    too (corrected modes; not with promote=False or promote_block). half_ulp_offset=True (with
    compensate; a what-if, no kernel does it yet): each k-step's hi·hi MMA starts from half an
    FP32 ulp of the previous step's hi·hi sum, signed like it, instead of 0, so that the Tensor
    Core's output rounding toward zero rounds that sum to nearest where its binade holds
    (docs/numerics.md section 3). Returns float32.
    """
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, got {mode!r}")
    _check_rounding(rounding)
    a, b = np.asarray(a), np.asarray(b)
    if a.dtype != np.float32 or b.dtype != np.float32:
        raise TypeError(f"gemm takes float32 operands, got {a.dtype} and {b.dtype}")
    if a.ndim < 2 or b.ndim < 2 or a.shape[-1] != b.shape[-2]:
        raise ValueError(f"gemm: shapes {a.shape} and {b.shape} do not multiply")
    if beta != 0.0 and c is None:
        raise ValueError("beta != 0 needs c")
    if compensate and (not promote or promote_block):
        raise ValueError("compensate models the tile's one promoted chain: not with promote=False "
                         "or promote_block")
    if half_ulp_offset and not compensate:
        raise ValueError("half_ulp_offset is modelled on the compensated tile: pass compensate=True")
    if alpha == 0.0:
        acc = np.zeros(np.broadcast_shapes(a.shape[:-1] + (1,), b.shape[:-2] + (1, b.shape[-1])))
    elif mode == "fp32":
        acc = _fp32_gemm(a.astype(np.float64), b.astype(np.float64))
    elif mode == "auto":
        acc = _auto_gemm(a, b, rounding, accumulator_format(extra_bits), tile_k, promote,
                         promote_block, compensate, half_ulp_offset)
    else:
        acc = _tensor_core_gemm(a, b, mode, rounding, accumulator_format(extra_bits),
                                tile_k or TILE_K[mode], promote, promote_block, compensate,
                                half_ulp_offset)
    return _epilogue(acc, alpha, beta, c).astype(np.float32)


def relative_residual(c, a, b) -> float:
    """||a @ b - c||_F / ||a @ b||_F with the reference product in float64 (Eq. 8)."""
    ref = np.asarray(a, dtype=np.float64) @ np.asarray(b, dtype=np.float64)
    return float(np.linalg.norm(ref - np.asarray(c, dtype=np.float64)) / np.linalg.norm(ref))
