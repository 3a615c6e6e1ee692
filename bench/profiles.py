"""What each profile measures. Shapes are written m×k×n (A is m×k, B is k×n), as in the paper's 64×k×64."""
from dataclasses import dataclass

SQUARE_SIZES = (1024, 2048, 4096, 8192, 16384)
# Shapes users run beside squares: a block of 256 vectors through a large operator; the paper's Figure 1 shape
# at its longest k (split-K territory); a wide, moderately deep product.
NON_SQUARE = ((16384, 16384, 256), (64, 1 << 20, 64), (4096, 1024, 16384))
HEADLINE_N = 8192  # the size the resolution quotes and the energy section runs at
# Every shape a user may swap `a @ b` for ecgemm on (issue 9's list): small squares where launches and the split
# dominate, skinny and GEMV-like products, short and long k.
SHAPE_SWEEP = ((256, 256, 256), (512, 512, 512), (1024, 1024, 1024), (2048, 2048, 2048), (8192, 8192, 8192),
               (64, 8192, 8192), (8192, 8192, 64), (128, 16384, 128), (1, 4096, 4096), (4096, 4096, 1),
               (8192, 64, 8192), (16384, 256, 16384), (4096, 65536, 4096), (64, 1 << 20, 64))


@dataclass(frozen=True)
class Profile:
    name: str
    shapes: tuple                    # of (m, k, n)
    acc_log2_k: tuple                # 64×k×64, k = 2^e
    acc_seeds: int                   # independent inputs per accuracy case (the residual is their mean)
    exp_shape: tuple                 # (m, k, n) of the exponent-type cases
    exp_seeds: int
    energy_n: int
    energy_seconds: float            # >= 2 s of back-to-back GEMMs per method
    case_budget_s: float             # timed seconds per (method, shape) beyond the 10-sample minimum
    warmup_s: float                  # untimed back-to-back work before timing (clocks settle, JIT, autotune)
    deadline_min: float              # later cases are skipped with a note once this much time has gone


def _square(*sizes):
    return tuple((s, s, s) for s in sizes)


PROFILES = {
    "default": Profile(
        name="default",
        shapes=_square(*SQUARE_SIZES) + NON_SQUARE,
        acc_log2_k=tuple(range(8, 21)),
        acc_seeds=2,
        exp_shape=(256, 1024, 256),
        exp_seeds=2,
        energy_n=HEADLINE_N,
        energy_seconds=2.5,
        case_budget_s=0.4,
        warmup_s=0.1,
        deadline_min=8.5,
    ),
    # Throughput across shapes (`--profile shapes --sections throughput`): the ratio-by-shape plot.
    "shapes": Profile(
        name="shapes",
        shapes=SHAPE_SWEEP,
        acc_log2_k=(8, 12, 16, 20),
        acc_seeds=1,
        exp_shape=(256, 1024, 256),
        exp_seeds=1,
        energy_n=HEADLINE_N,
        energy_seconds=2.0,
        case_budget_s=0.12,
        warmup_s=0.05,
        deadline_min=6.0,
    ),
    "quick": Profile(
        name="quick",
        shapes=_square(1024, 4096, HEADLINE_N) + ((4096, 1024, 16384),),
        acc_log2_k=(8, 12, 16, 20),
        acc_seeds=1,
        exp_shape=(256, 1024, 256),
        exp_seeds=1,
        energy_n=HEADLINE_N,
        energy_seconds=2.0,
        case_budget_s=0.12,
        warmup_s=0.05,
        deadline_min=2.5,
    ),
}


def shape_label(shape):
    m, k, n = shape
    return f"{m}×{k}×{n}"


def gemm_flops(shape):
    m, k, n = shape
    return 2.0 * m * k * n


def is_square(shape):
    return shape[0] == shape[1] == shape[2]
