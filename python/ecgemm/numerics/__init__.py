"""ecgemm's numerics lab: the paper's analysis as code, on the CPU.

- :func:`split` — hi/lo exactly as the kernels store them (libecgemm's host build of
  its split functions); :func:`split_variant` — the same with another rounding.
- :func:`exp_rand` — the paper's test matrices.
- :func:`mantissa_kept`, :func:`kept_length_distribution` — Tables 1 and 2 by
  enumeration of all 2^23 mantissas.
- :func:`underflow_theory`, :func:`underflow_sampled` — P_u(e_v) and P_{u+gu}(e_v).
- :func:`mma`, :func:`gemm` — a Tensor Core model (mma_rn / mma_rz) and every
  ecgemm mode built on it (``compensate=True``: fused_mma's compensated tile);
  :func:`accumulation_experiment` — the paper's Figure 5.
- :func:`auto_choice` — ECGEMM_MODE_AUTO's per-row/column scales and route for given data.
- :func:`block_choice`, :func:`auto_block_gemm` — AUTO with scales per k-block instead
  (issue 26): the choice, and the GEMM with the factors applied at promotion;
  :func:`block_scaling_study` compares it with the other modes.
- :func:`split3`, :func:`three_part_gemm` — a three-part TF32 split and its six products;
  :func:`split_error_study` — where tf32tf32's error on wide-range data comes from.
- :func:`wide_blocks`, :func:`fp32_path` — AUTO on the fused mma.sync family: which blocks of C
  take a stage in FP32, and what that path computes (bit for bit).

``python -m ecgemm.numerics --plot DIR`` draws the figures (needs matplotlib);
``--auto-blocks DIR`` runs the block-scaling study, ``--three-part DIR`` the split study.
"""

from .auto import AutoChoice, auto_choice
from .auto_blocks import BlockChoice, auto_block_gemm, block_choice
from .auto_fused import fp32_path, scaled_wide_blocks, unscalable_stages, wide_blocks, wide_runs
from .emulator import MODES, TILE_K, gemm, mma, relative_residual
from .exp_rand import exp_rand
from .experiments import accumulation_experiment, block_scaling_study, split_error_study
from .mantissa import expected_kept_length, kept_length_distribution, mantissa_kept, ulp
from .rounding import FP16, FP32, TF32, Format, round_to
from .split import LO_SCALE, METHODS, NATIVE_ROUNDING, reconstruct, split, split_variant
from .three_part import split3, three_part_gemm
from .underflow import p_l0, underflow_sampled, underflow_theory

__all__ = [
    "AutoChoice", "BlockChoice", "FP16", "FP32", "LO_SCALE", "METHODS", "MODES",
    "NATIVE_ROUNDING", "TF32", "TILE_K", "Format",
    "accumulation_experiment", "auto_block_gemm", "auto_choice", "block_choice",
    "block_scaling_study", "exp_rand", "expected_kept_length", "fp32_path", "gemm",
    "kept_length_distribution", "mantissa_kept", "mma", "p_l0", "reconstruct",
    "relative_residual", "round_to", "split", "split3", "split_error_study", "split_variant",
    "scaled_wide_blocks", "three_part_gemm", "ulp", "underflow_sampled", "underflow_theory", "unscalable_stages",
    "wide_blocks", "wide_runs",
]
