"""Validity guards: does a method compute what it promises? Every residual gets a verdict, so that a peer
that silently falls back (e.g. an FP32-class preset returning TF32-class results) is flagged in the report
instead of being compared as if it were FP32-accurate."""
import math
from dataclasses import dataclass

from bench.methods import CORRECTED_FP16, FP32, ONE_PASS

OK, FLAG, FAIL, RANGE, ERROR, SKIPPED = "ok", "flag", "fail", "range", "error", "skipped"
SEVERITY = {OK: 0, RANGE: 1, SKIPPED: 2, FLAG: 3, ERROR: 4, FAIL: 5}

# An FP32-accurate method stays within an order of magnitude of SGEMM on the same inputs.
FP32_TOLERANCE_VS_SGEMM = 10.0
# One pass through a 10-bit-mantissa format (TF32, FP16) lands near 2^-12 ≈ 2.4e-4 relative error:
ONE_PASS_CLASS = 2.0 ** -13        # at or above this an "FP32" result is really one-pass class
ONE_PASS_FLOOR = 2.0 ** -16        # below this a "one-pass" result did not come from one pass
ONE_PASS_CEILING = 2.0 ** -8       # above this even a one-pass product has gone wrong
FP16_OUT_OF_RANGE_TYPES = (2, 3, 4)  # the paper's exponent types where FP16 operands underflow


@dataclass(frozen=True)
class Verdict:
    status: str
    why: str = ""


def judge(info, residual, sgemm_residual=None, exp_type=None):
    """The verdict on one residual of method `info` (a MethodInfo); sgemm_residual is SGEMM's on the same inputs."""
    if residual is None:
        return Verdict(ERROR, "no result")
    if math.isnan(residual) or math.isinf(residual):
        return Verdict(FAIL, f"{residual} residual")
    if info.fp16_operands and exp_type in FP16_OUT_OF_RANGE_TYPES:
        return Verdict(RANGE, f"type {exp_type} is outside FP16's exponent range (documented limit)")
    if info.promise == FP32:
        if residual >= ONE_PASS_CLASS:
            return Verdict(FLAG, "TF32-class residual from an FP32-class method")
        if _usable(sgemm_residual) and residual > FP32_TOLERANCE_VS_SGEMM * sgemm_residual:
            return Verdict(FLAG, f"{residual / sgemm_residual:.0f}× SGEMM's residual")
        return Verdict(OK)
    if info.promise == ONE_PASS:
        if residual > ONE_PASS_CEILING:
            return Verdict(FLAG, "worse than one pass")
        if residual < ONE_PASS_FLOOR:
            return Verdict(FLAG, "FP32-class residual: the one-pass path was not taken")
        return Verdict(OK)
    if info.promise == CORRECTED_FP16:
        return Verdict(FLAG, "worse than one pass") if residual > ONE_PASS_CEILING else Verdict(OK)
    raise ValueError(f"unknown promise {info.promise!r}")


def worst(statuses):
    """The most severe of several statuses (for a table cell that aggregates seeds)."""
    return max(statuses, key=SEVERITY.__getitem__, default=OK)


def _usable(x):
    return x is not None and math.isfinite(x) and x > 0
