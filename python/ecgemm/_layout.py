"""Map row-major (or any single-unit-stride) matrices onto the column-major ABI.

A matrix whose row stride is 1 is column-major with ``ld`` = its column stride;
one whose column stride is 1 is the transpose of a column-major matrix with
``ld`` = its row stride. C = A·B is computed as ``ecgemm_sgemm`` on C when C is
column-major, and as C^T = B^T·A^T otherwise, so no operand is ever copied.
"""

from __future__ import annotations

from typing import NamedTuple, Optional, Tuple

from ._operands import Operand

OP_N, OP_T = 0, 1  # ecgemmOperation_t
INT32_MAX = 2**31 - 1  # the ABI's dimensions and leading dimensions are C ints


class Stored(NamedTuple):
    """An ABI operand: a `rows` x `cols` column-major matrix, column j at ptr + 4·j·ld."""

    operand: Operand
    rows: int
    cols: int
    ld: int


class GemmPlan(NamedTuple):
    """The arguments of the ``ecgemm_sgemm`` call that computes the product.

    ``c = alpha·op(a)·op(b) + beta·c`` in column-major terms, with ``a``, ``b``,
    ``c`` the ABI's operands (for a row-major result these are B^T, A^T, C^T).
    """

    transa: int
    transb: int
    m: int
    n: int
    k: int
    a: Stored
    b: Stored
    c: Stored


def column_major_ld(rows: int, cols: int, row_stride: int, col_stride: int) -> Optional[int]:
    """``ld`` if a rows x cols matrix with these element strides is column-major, else None.

    A stride along an extent of 0 or 1 never moves, so it does not count.
    """
    if rows == 0 or cols == 0:  # no element is ever addressed
        return max(1, rows)
    if rows > 1 and row_stride != 1:
        return None
    if cols <= 1:
        return max(1, rows)
    return col_stride if col_stride >= max(1, rows) else None


def _stored(op: Operand) -> Tuple[int, Stored]:
    """How the ABI reads logical matrix `op`: (OP_N, op as stored) or (OP_T, op^T as stored)."""
    (rows, cols), (row_stride, col_stride) = op.shape, op.strides
    ld = column_major_ld(rows, cols, row_stride, col_stride)
    if ld is not None:
        return OP_N, Stored(op, rows, cols, ld)
    ld = column_major_ld(cols, rows, col_stride, row_stride)
    if ld is not None:
        return OP_T, Stored(op, cols, rows, ld)
    raise ValueError(
        f"{op.name} has shape {op.shape} and strides {tuple(s * 4 for s in op.strides)} bytes: "
        f"ecgemm needs one unit stride (and the other at least the extent it steps over), "
        f"as in C- or Fortran-ordered arrays and their row or column slices; pass "
        f"{op.name}.copy() for other layouts")


def check_layout(op: Operand) -> None:
    """Raise ``ValueError`` unless the ABI can read `op` in place (as it is or transposed)."""
    _stored(op)


def plan_gemm(a: Operand, b: Operand, c: Operand) -> GemmPlan:
    """Plan ``c = a @ b`` for logical shapes (m, k) @ (k, n) -> (m, n).

    Shapes must already agree; raises ``ValueError`` for layouts the ABI cannot
    describe and for sizes beyond its 32-bit integers.
    """
    trans_a, stored_a = _stored(a)
    trans_b, stored_b = _stored(b)
    trans_c, stored_c = _stored(c)
    m, k, n = a.shape[0], a.shape[1], b.shape[1]
    if trans_c == OP_N:  # C is column-major: C = op(A) op(B)
        plan = GemmPlan(trans_a, trans_b, m, n, k, stored_a, stored_b, stored_c)
    else:
        # C^T is column-major: C^T = B^T A^T. Transposing an operand flips its
        # flag and leaves its storage as it is, so nothing moves.
        plan = GemmPlan(_flip(trans_b), _flip(trans_a), n, m, k, stored_b, stored_a, stored_c)
    _check_int32(plan)
    return plan


def _flip(trans: int) -> int:
    return OP_T if trans == OP_N else OP_N


def _check_int32(plan: GemmPlan) -> None:
    sizes = {"m": plan.m, "n": plan.n, "k": plan.k, "lda": plan.a.ld, "ldb": plan.b.ld,
             "ldc": plan.c.ld}
    for what, value in sizes.items():
        if value > INT32_MAX:
            raise ValueError(f"{what} = {value} does not fit the ABI's 32-bit int "
                             f"(at most {INT32_MAX})")
