"""AUTO with scales per k-block (issue 26): the lab model (docs/numerics.md, section 10).

Row i of op(A) is scaled per k-block b by 2^s_ib, chosen from that row segment alone where
the split reads it, with the rule AUTO applies to a whole row (auto.py): the largest
magnitude to [2^14, 2^15), the segment fits FP16's window when its smallest non-zero
magnitude lands at 2^-15 or above (at most 29 binades of spread) and it is finite. op(B)
takes 2^t_bj per column segment ("column") or one 2^t per k-block and tile of `tile_n`
columns ("tile", the Hopper variant: each thread's factor then varies per row only).

halfhalf's products of the scaled parts reach the FP32 accumulator with 2^-(s_ib + t_bj)
applied as they are added:

- hi·hi, per k16 step: main = RN(main + p · 2^-(s+t)), one FFMA;
- the correction accumulator (lo·hi + hi·lo, inside the Tensor Core, from 0 in each
  k-block), at the block's end: main = RN(main + corr · 2^-11 · 2^-(s+t)), one FFMA.

A power-of-two factor is exact while the result stays normal, so the only new rounding
is the correction's, once per k-block instead of once per call. No epilogue unscale.

If any segment does not fit (NaN/Inf, or more than 29 binades), the whole call runs
tf32tf32's products on the operands as they are (auto.py's unscaled route). A segment that
fits keeps its elements too, so WIDE_BOTTOM_EXPONENT never decides here.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass

import numpy as np

from .auto import _slices
from .emulator import DEFAULT_EXTRA_BITS, TILE_K, _check_rounding, _mma64, gemm
from .rounding import FP32, accumulator_format, round_sum
from .split import LO_SCALE, split

B_SCALES = ("column", "tile")
_MMA_K = TILE_K["halfhalf"]  # k per FP16 MMA: a k-block holds whole k16 steps


@dataclass(frozen=True)
class BlockChoice:
    a_exp: np.ndarray   # int (m, blocks): row i of op(A) in k-block b is scaled by 2^a_exp[i, b]
    b_exp: np.ndarray   # int (blocks, n) per column, or (blocks, ceil(n / tile_n)) per tile
    a_fits: np.ndarray  # bool, a_exp's shape: the segment is finite and fits FP16's window
    b_fits: np.ndarray  # bool, b_exp's shape
    shape: tuple        # (m, k, n)
    block_k: int
    tile_n: int | None  # None: one scale per column of op(B)
    fallback: bool      # True: tf32tf32's products; False: halfhalf's, scaled per block
    scaled: bool        # False: the operands as they are (always so when falling back)

    @property
    def mode(self) -> str:
        return "tf32tf32" if self.fallback else "halfhalf"

    @property
    def unfit_fractions(self) -> tuple:
        """(share of A's row segments, share of B's column or tile segments) that do not
        fit; one segment is enough to send the call to tf32tf32."""
        return tuple(float(np.mean(~fits)) if fits.size else 0.0
                     for fits in (self.a_fits, self.b_fits))

    def a_shifts(self) -> np.ndarray:
        """The exponent applied to each element of op(A), (m, k)."""
        return np.repeat(self.a_exp, self.block_k, axis=1)[:, :self.shape[1]]

    def b_column_exp(self) -> np.ndarray:
        """B's exponent per (k-block, column), (blocks, n), tiles spread over their columns."""
        if self.tile_n is None:
            return self.b_exp
        return np.repeat(self.b_exp, self.tile_n, axis=1)[:, :self.shape[2]]

    def b_shifts(self) -> np.ndarray:
        """The exponent applied to each element of op(B), (k, n)."""
        return np.repeat(self.b_column_exp(), self.block_k, axis=0)[:self.shape[1]]


def _positive_int(name: str, value) -> int:
    if not isinstance(value, numbers.Integral) or isinstance(value, bool):
        raise TypeError(f"{name} must be an integer, got {value!r}")
    if value <= 0:
        raise ValueError(f"{name} must be positive, got {value}")
    return int(value)


def _check_options(block_k, b_scale, tile_n):
    block_k = _positive_int("block_k", block_k)
    if block_k % _MMA_K:
        raise ValueError(f"block_k must be a multiple of {_MMA_K} (the k of one FP16 MMA, "
                         f"so that no k16 step straddles two blocks), got {block_k}")
    if b_scale not in B_SCALES:
        raise ValueError(f"b_scale must be one of {B_SCALES}, got {b_scale!r}")
    return block_k, _positive_int("tile_n", tile_n)


def _check_shapes(a: np.ndarray, b: np.ndarray, who: str) -> None:
    if a.ndim != 2 or b.ndim != 2 or a.shape[1] != b.shape[0]:
        raise ValueError(f"{who}: shapes {a.shape} and {b.shape} do not multiply "
                         "(op(A) is m x k, op(B) is k x n; modelled for 2-D operands)")


def _count(size: int, per: int) -> int:
    """Segments of `per` covering `size` (one, all padding, for size 0)."""
    return max(1, -(-size // per))


def _padded(x: np.ndarray, axis: int, per: int) -> np.ndarray:
    """x with zeros appended along `axis` up to whole segments: zeros change neither a
    segment's largest nor its smallest non-zero magnitude."""
    pad = [(0, 0)] * x.ndim
    pad[axis] = (0, _count(x.shape[axis], per) * per - x.shape[axis])
    return np.pad(x, pad)


def block_choice(a, b, *, block_k: int = 64, b_scale: str = "column",
                 tile_n: int = 128) -> BlockChoice:
    """The per-k-block scales and the route for op(A) = a (m x k) and op(B) = b (k x n)."""
    block_k, tile_n = _check_options(block_k, b_scale, tile_n)
    a, b = np.asarray(a, dtype=np.float32), np.asarray(b, dtype=np.float32)
    _check_shapes(a, b, "block_choice")
    (m, k), n = a.shape, b.shape[1]
    blocks = _count(k, block_k)
    a_exp, a_fit, _, a_finite = _slices(_padded(a, 1, block_k).reshape(m, blocks, block_k), 2)
    b_blocks = _padded(b, 0, block_k).reshape(blocks, block_k, n)
    if b_scale == "column":
        b_exp, b_fit, _, b_finite = _slices(b_blocks, axis=1)
    else:
        tiles = _count(n, tile_n)
        b_tiles = _padded(b_blocks, 2, tile_n).reshape(blocks, block_k, tiles, tile_n)
        b_exp, b_fit, _, b_finite = (x[:, :-(-n // tile_n)] for x in _slices(b_tiles, (1, 3)))
    a_fits, b_fits = a_fit & a_finite, b_fit & b_finite
    fallback = not (a_fits.all() and b_fits.all())
    if fallback:  # tf32tf32 on the operands as they are: no scales
        a_exp, b_exp = np.zeros_like(a_exp), np.zeros_like(b_exp)
    return BlockChoice(a_exp, b_exp, a_fits, b_fits, (m, k, n), block_k,
                       None if b_scale == "column" else tile_n, fallback, not fallback)


def auto_block_gemm(a, b, *, block_k: int = 64, b_scale: str = "column", tile_n: int = 128,
                    rounding: str = "rz", extra_bits: int = DEFAULT_EXTRA_BITS) -> np.ndarray:
    """a @ b (float32, 2-D) as AUTO with per-k-block scales would compute it (module doc).

    rounding, extra_bits: the Tensor Core model's, as in :func:`gemm`. Returns float32;
    on fallback exactly ``gemm(a, b, "tf32tf32", rounding=..., extra_bits=...)``.
    """
    _check_rounding(rounding)
    acc_fmt = accumulator_format(extra_bits)
    a, b = np.asarray(a), np.asarray(b)
    if a.dtype != np.float32 or b.dtype != np.float32:
        raise TypeError(f"auto_block_gemm takes float32 operands, got {a.dtype} and {b.dtype}")
    choice = block_choice(a, b, block_k=block_k, b_scale=b_scale, tile_n=tile_n)
    if choice.fallback:
        return gemm(a, b, "tf32tf32", rounding=rounding, extra_bits=extra_bits)
    a_shift, b_shift = choice.a_shifts().astype(np.int32), choice.b_shifts().astype(np.int32)
    # Exact: every non-zero element lands in [2^-15, 2^15), a normal FP32 number.
    a_hi, a_lo = (p.astype(np.float64) for p in split(np.ldexp(a, a_shift), "half"))
    b_hi, b_lo = (p.astype(np.float64) for p in split(np.ldexp(b, b_shift), "half"))
    m, k, n = choice.shape
    main = np.zeros((m, n))
    zero = np.zeros((m, n))
    col_exp = choice.b_column_exp()
    for block, k0 in enumerate(range(0, k, choice.block_k)):
        # 2^-(s+t) applied in float64 is exact; round_sum then rounds once, as one FFMA does.
        unscale = -(choice.a_exp[:, block, None] + col_exp[None, block, :]).astype(np.int32)
        corr = np.zeros((m, n))  # the correction accumulator restarts each k-block
        for s0 in range(k0, min(k0 + choice.block_k, k), _MMA_K):
            ks = slice(s0, s0 + _MMA_K)
            ah, bh = a_hi[:, ks], b_hi[ks, :]
            corr = _mma64(a_lo[:, ks], bh, corr, rounding, acc_fmt)
            corr = _mma64(ah, b_lo[ks, :], corr, rounding, acc_fmt)
            product = _mma64(ah, bh, zero, rounding, acc_fmt)
            main = round_sum(main, np.ldexp(product, unscale), FP32, "rn")
        main = round_sum(main, np.ldexp(corr / LO_SCALE["half"], unscale), FP32, "rn")
    return main.astype(np.float32)
