"""A three-part TF32 split, modelled before any kernel (docs/numerics.md, section 11).

AUTO falls back to tf32tf32's products where a row spans more than FP16's window, and
there its residual measured 1.16–1.23× SGEMM's at 256 × 1024 × 256 (issue 26's gate).
Two error sources could cause it: the two-part split (22 of FP32's 24 bits kept, lo·lo
dropped) and the Tensor Core's truncating sum of the k-step's hi·hi products before the
round-to-nearest promotion. :func:`three_part_gemm` removes the first: x = p1 + p2 + p3
exactly (each part TF32; the library's own split, applied twice), six products, every
product of weight 2^-22 or more kept. ``experiments.split_error_study`` puts each
source's share side by side, with the Tensor Core's accumulation as the hardware does it
("rz") and as mma_rn would ("rn").
"""

from __future__ import annotations

import numpy as np

from .emulator import DEFAULT_EXTRA_BITS, TF32_READ_MASK, TILE_K, _mma64
from .rounding import FP32, accumulator_format, round_sum
from .split import split


def split3(x):
    """(p1, p2, p3) float32 with x = p1 + p2 + p3 exactly for finite x whose parts stay
    normal (|x| >= 2^-104): p1, p2 are split(x, "tf32"), and (p2, p3) split(x - p1, "tf32"),
    where x - p1 is exact in FP32 and p3 holds its last two bits. Non-finite x: p1 = x and
    p2 = p3 = 0, as the two-part split leaves lo."""
    x = np.asarray(x, dtype=np.float32)
    p1, _ = split(x, "tf32")
    with np.errstate(invalid="ignore", over="ignore"):
        rest = np.where(np.isfinite(p1), x - p1, np.float32(0.0)).astype(np.float32)
    p2, p3 = split(rest, "tf32")
    return p1, p2, p3


def _read(part):
    """What a TF32 Tensor Core reads of an operand (emulator.py)."""
    return (part.view(np.uint32) & np.uint32(TF32_READ_MASK)).view(np.float32).astype(np.float64)


def three_part_gemm(a, b, rounding: str = "rz", extra_bits: int = DEFAULT_EXTRA_BITS,
                    tile_k: int = TILE_K["tf32tf32"]) -> np.ndarray:
    """a @ b from three-part TF32 splits, the way a kernel would run them: p1·q1 of each
    k-step promoted by an FP32 round-to-nearest add (as tf32tf32's hi·hi), the five smaller
    products (p3·q1, p2·q2, p1·q3, then p2·q1, p1·q2) in one Tensor Core accumulator, added
    once at the end. A non-finite promoted sum stands alone, as in tf32tf32. float32."""
    a, b = np.asarray(a, dtype=np.float32), np.asarray(b, dtype=np.float32)
    if a.ndim != 2 or b.ndim != 2 or a.shape[1] != b.shape[0]:
        raise ValueError(f"three_part_gemm: 2-D operands that multiply, got {a.shape}, {b.shape}")
    acc_fmt = accumulator_format(extra_bits)
    with np.errstate(invalid="ignore"):
        pa = [_read(p) for p in split3(a)]
        pb = [_read(p) for p in split3(b)]
    shape = (a.shape[0], b.shape[1])
    main, corr, zero = np.zeros(shape), np.zeros(shape), np.zeros(shape)
    order = ((2, 0), (1, 1), (0, 2), (1, 0), (0, 1))  # (part of A, part of B), smallest first
    for k0 in range(0, a.shape[1], tile_k):
        ks = slice(k0, k0 + tile_k)
        for i, j in order:
            corr = _mma64(pa[i][:, ks], pb[j][ks, :], corr, rounding, acc_fmt)
        main = round_sum(main, _mma64(pa[0][:, ks], pb[0][ks, :], zero, rounding, acc_fmt), FP32, "rn")
    with np.errstate(invalid="ignore"):
        total = round_sum(main, corr, FP32, "rn")
    return np.where(np.isfinite(main), total, main).astype(np.float32)
