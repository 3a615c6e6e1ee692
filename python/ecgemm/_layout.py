"""Map row-major (or any single-unit-stride) matrices onto the column-major ABI.

A matrix whose row stride is 1 is column-major with ``ld`` = its column stride;
one whose column stride is 1 is the transpose of a column-major matrix with
``ld`` = its row stride. C = A·B is computed as ``ecgemm_sgemm`` on C when C is
column-major, and as C^T = B^T·A^T otherwise, so no operand is ever copied.

Stacks (N-D operands, NumPy ``matmul`` broadcasting) are one such product per batch
item: one ``ecgemm_sgemm_strided_batched`` call when each operand's batch dimensions
collapse to one stride (0 for an operand broadcast across the batch), else one
``ecgemm_sgemm_batched`` call on arrays of item pointers.
"""

from __future__ import annotations

from typing import NamedTuple, Optional, Tuple

import numpy as np

from ._operands import ITEMSIZE, Operand

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
    (rows, cols), (row_stride, col_stride) = op.shape[-2:], op.strides[-2:]
    ld = column_major_ld(rows, cols, row_stride, col_stride)
    if ld is not None:
        return OP_N, Stored(op, rows, cols, ld)
    ld = column_major_ld(cols, rows, col_stride, row_stride)
    if ld is not None:
        return OP_T, Stored(op, cols, rows, ld)
    raise ValueError(
        f"{op.name} has shape {op.shape} and strides {tuple(s * ITEMSIZE for s in op.strides)} "
        f"bytes: "
        f"ecgemm needs one unit stride (and the other at least the extent it steps over), "
        f"as in C- or Fortran-ordered arrays and their row or column slices; pass "
        f"{op.name}.copy() for other layouts")


def check_layout(op: Operand) -> None:
    """Raise ``ValueError`` unless the ABI can read `op` in place (as it is or transposed)."""
    if op.size:  # an empty stack addresses nothing
        _stored(op)


def plan_gemm(a: Operand, b: Operand, c: Operand) -> GemmPlan:
    """Plan ``c = a @ b`` for logical shapes (m, k) @ (k, n) -> (m, n).

    Shapes must already agree; raises ``ValueError`` for layouts the ABI cannot
    describe and for sizes beyond its 32-bit integers.
    """
    trans_a, stored_a = _stored(a)
    trans_b, stored_b = _stored(b)
    trans_c, stored_c = _stored(c)
    m, k, n = a.shape[-2], a.shape[-1], b.shape[-1]
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


class BatchPlan(NamedTuple):
    """The arguments of one batched call: `gemm` for batch item 0, and how items advance.

    ``strides`` (elements between consecutive items of the ABI's a, b, c) for
    ``ecgemm_sgemm_strided_batched``; else ``offsets``, a (3, count) int64 array of
    each item's element offset from item 0, for ``ecgemm_sgemm_batched``.
    """

    gemm: GemmPlan
    count: int
    strides: Optional[Tuple[int, int, int]]
    offsets: Optional[np.ndarray]


class Broadcast(NamedTuple):
    """Two operands as stacks of one batch shape, and the result they make."""

    a: Operand
    b: Operand
    batch: Tuple[int, ...]
    result_shape: Tuple[int, ...]
    row_dropped: bool  # `a` was 1-D: the result has no row dimension
    col_dropped: bool  # `b` was 1-D: the result has no column dimension


def matmul_shapes(a: Operand, b: Operand) -> Broadcast:
    """NumPy ``matmul`` rules: `a` and `b` as stacks of one broadcast batch shape.

    A 1-D `a` is a row (1, k), a 1-D `b` a column (k, 1), and their unit dimension
    is dropped from the result; batch dimensions broadcast (stride 0).
    """
    for op in (a, b):
        if len(op.shape) == 0:
            raise ValueError(f"matmul: {op.name} is a scalar (0-D); matmul needs at least 1-D "
                             f"operands (use * to scale)")
    shape_a, shape_b = a.shape, b.shape
    row_dropped, col_dropped = len(shape_a) == 1, len(shape_b) == 1
    if row_dropped:
        a = a._replace(shape=(1,) + a.shape, strides=(0,) + a.strides)
    if col_dropped:
        b = b._replace(shape=b.shape + (1,), strides=b.strides + (0,))
    if a.shape[-1] != b.shape[-2]:
        if len(shape_a) == len(shape_b) == 2:
            detail = f"a.shape[1] = {shape_a[1]} != b.shape[0] = {shape_b[0]}"
        else:
            detail = f"their inner dimensions {a.shape[-1]} and {b.shape[-2]} differ"
        raise ValueError(f"matmul: a has shape {shape_a} and b has shape {shape_b}: {detail}")
    if len(shape_a) == len(shape_b) == 2:  # the usual case: no batch to broadcast
        return Broadcast(a, b, (), (a.shape[0], b.shape[1]), False, False)
    try:
        batch = tuple(int(e) for e in np.broadcast_shapes(a.shape[:-2], b.shape[:-2]))
    except ValueError:
        raise ValueError(f"matmul: the batch dimensions of a {shape_a} and b {shape_b} do not "
                         "broadcast (NumPy rules: equal, or one of them 1)") from None
    tail = (() if row_dropped else (a.shape[-2],)) + (() if col_dropped else (b.shape[-1],))
    return Broadcast(_broadcast(a, batch), _broadcast(b, batch), batch, batch + tail,
                     row_dropped, col_dropped)


def _broadcast(op: Operand, batch: Tuple[int, ...]) -> Operand:
    own, strides = op.shape[:-2], op.strides[:-2]
    batch_strides = (0,) * (len(batch) - len(own)) + tuple(
        0 if extent == 1 else stride for extent, stride in zip(own, strides))
    return op._replace(shape=batch + op.shape[-2:], strides=batch_strides + op.strides[-2:])


def as_stack(out: Operand, shapes: Broadcast) -> Operand:
    """`out` (already checked to have the result's shape) as the stack it receives."""
    if not (shapes.row_dropped or shapes.col_dropped):
        return out
    shape, strides = out.shape, out.strides
    if shapes.row_dropped:
        at = len(shape) - (0 if shapes.col_dropped else 1)
        shape, strides = shape[:at] + (1,) + shape[at:], strides[:at] + (0,) + strides[at:]
    if shapes.col_dropped:
        shape, strides = shape + (1,), strides + (0,)
    return out._replace(shape=shape, strides=strides)


def check_items_disjoint(out: Operand) -> None:
    """Raise ``ValueError`` if two elements of `out` share an address (a stride-0 view).

    Sufficient test: with the dimensions sorted by stride, each stride steps over
    everything the smaller ones span.
    """
    if len(out.shape) <= 2:  # a matrix that passed check_layout: its elements are distinct
        return
    dims = sorted((abs(s), e) for e, s in zip(out.shape, out.strides) if e > 1)
    span = 0
    for stride, extent in dims:
        if stride <= span:
            raise ValueError(
                f"{out.name} has shape {out.shape} and strides "
                f"{tuple(s * ITEMSIZE for s in out.strides)} bytes: its elements may share "
                f"memory, so products could overwrite each other; pass a separate array")
        span += (extent - 1) * stride


def plan_batch(a: Operand, b: Operand, c: Operand) -> BatchPlan:
    """Plan ``c[i] = a[i] @ b[i]`` over stacks of one batch shape (see matmul_shapes).

    Raises ``ValueError`` for layouts the ABI cannot read and sizes beyond it.
    """
    batch = c.shape[:-2]
    if not batch:
        return BatchPlan(plan_gemm(a, b, c), 1, (0, 0, 0), None)
    items = [op._replace(shape=op.shape[-2:], strides=op.strides[-2:]) for op in (a, b, c)]
    gemm = plan_gemm(*items)
    count = 1
    for extent in batch:
        count *= extent
    if count > INT32_MAX:
        raise ValueError(f"batch_count = {count} does not fit the ABI's 32-bit int "
                         f"(at most {INT32_MAX})")
    # plan_gemm may compute C^T = B^T A^T: the ABI's a is then our b.
    stacks = (a, b) if gemm.a.operand is items[0] else (b, a)
    stacks += (c,)
    strides = [_single_stride(batch, op.strides[:-2]) for op in stacks]
    if all(stride is not None and stride >= 0 for stride in strides):
        return BatchPlan(gemm, count, tuple(strides), None)  # type: ignore[arg-type]
    offsets = np.stack([_item_offsets(batch, op.strides[:-2]) for op in stacks])
    return BatchPlan(gemm, count, None, offsets)


def _single_stride(extents: Tuple[int, ...], strides: Tuple[int, ...]) -> Optional[int]:
    """One stride that walks these batch dimensions in C order, or None if there is none."""
    stride = step = None
    for extent, s in zip(reversed(extents), reversed(strides)):
        if extent == 1:
            continue
        if stride is None:
            stride = s
        elif s != step:
            return None
        step = s * extent
    return 0 if stride is None else stride


def _item_offsets(extents: Tuple[int, ...], strides: Tuple[int, ...]) -> np.ndarray:
    """Element offset of every batch item from item 0, in C order."""
    offsets = np.zeros((), np.int64)
    for extent, stride in zip(extents, strides):
        offsets = np.add.outer(offsets, np.arange(extent, dtype=np.int64) * stride)
    return offsets.reshape(-1)
