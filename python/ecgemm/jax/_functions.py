"""``matmul`` and ``dot_general`` with JAX's semantics, computed by ecgemm.

Both check their operands while tracing (``TypeError`` for dtypes other than float32,
``ValueError`` for shapes that do not agree), reduce the call to one product of
matrices or stacks (``_ops.product``: operands read in place wherever their memory
order allows, transposed through the ABI's flags rather than copied), and are jitted,
so that a call outside ``jit`` is one cached executable and sharded operands are
partitioned there too.
"""

from __future__ import annotations

import functools
import math
from typing import Optional, Sequence, Tuple

import jax
import jax.numpy as jnp
import numpy as np

from ._ops import check_mode, product, stacked
from ._target import Product


def matmul(a, b, *, mode: Optional[str] = None) -> jax.Array:
    """``jnp.matmul(a, b)`` for float32 operands, computed by ecgemm in `mode`.

    NumPy's rules: 1-D operands are a row (left) or a column (right) whose dimension
    is dropped from the result; N-D operands are stacks of matrices whose batch
    dimensions broadcast. One ecgemm call computes the whole stack: a stack times
    one matrix is one product of the stacked rows, other stacks a strided batch in
    which an operand with one matrix is shared rather than copied.

    `mode` is one of ``ecgemm.MODES`` (None: ``"tf32tf32"``, the library's default).
    Works under ``jit``, ``vmap`` (a vmapped product is one ecgemm call), ``grad``
    (both gradients by ecgemm in the same mode), ``lax.scan`` and sharding
    (``shard_map``; under ``jit`` the result is placed as ``jnp.matmul``'s would be).
    Forward-mode differentiation (``jvp``, ``jacfwd``) is not defined, as for every
    ``jax.custom_vjp`` function.
    """
    a, b = _operand("matmul", "a", a), _operand("matmul", "b", b)
    return _matmul(a, b, mode=check_mode(mode))


@functools.partial(jax.jit, static_argnames="mode")
def _matmul(a: jax.Array, b: jax.Array, mode: str) -> jax.Array:
    for name, x in (("a", a), ("b", b)):
        if x.ndim == 0:
            raise ValueError(f"ecgemm.jax.matmul: {name} is a scalar (0-D); matmul needs "
                             f"operands of at least one dimension (use * to scale)")
    rows = a[None, :] if a.ndim == 1 else a  # a row vector (1, k)
    cols = b[:, None] if b.ndim == 1 else b  # a column vector (k, 1)
    if rows.shape[-1] != cols.shape[-2]:
        raise ValueError(f"ecgemm.jax.matmul: a has shape {a.shape} and b has shape {b.shape}: "
                         f"the contraction dimensions {rows.shape[-1]} and {cols.shape[-2]} "
                         f"differ")
    try:
        np.broadcast_shapes(rows.shape[:-2], cols.shape[:-2])
    except ValueError:
        raise ValueError(f"ecgemm.jax.matmul: the batch dimensions of a {a.shape} and b "
                         f"{b.shape} do not broadcast (NumPy rules: equal, or one of them "
                         f"1)") from None
    c = stacked(rows, cols, Product(False, False, mode, batched=True))
    if b.ndim == 1:
        c = c[..., 0]
    if a.ndim == 1:
        c = c[..., 0, :] if b.ndim > 1 else c[..., 0]
    return c


DimensionNumbers = Tuple[Tuple[Sequence[int], Sequence[int]], Tuple[Sequence[int], Sequence[int]]]


def dot_general(lhs, rhs, dimension_numbers: DimensionNumbers, precision=None,
                preferred_element_type=None, out_sharding=None, *,
                mode: Optional[str] = None) -> jax.Array:
    """``jax.lax.dot_general`` for float32 operands, computed by ecgemm in `mode`.

    A drop-in for the ``dot_general`` argument of layers such as ``flax.linen.Dense``.
    The result's dimensions are the batch dimensions, then ``lhs``'s free ones, then
    ``rhs``'s free ones, as in ``lax.dot_general``. Operands whose dimensions are
    already in (batch, free, contracting) or (batch, contracting, free) order are
    read in place; others are transposed first. `precision` is accepted for the
    signature's sake and does not change anything: the mode sets the accuracy.
    `preferred_element_type` may be None or float32; `out_sharding`, where given,
    constrains the result's sharding. Transformations as :func:`matmul`.
    """
    del precision  # the mode decides the arithmetic
    lhs, rhs = _operand("dot_general", "lhs", lhs), _operand("dot_general", "rhs", rhs)
    if preferred_element_type is not None and np.dtype(preferred_element_type) != np.float32:
        raise TypeError(f"ecgemm.jax.dot_general: preferred_element_type = "
                        f"{np.dtype(preferred_element_type)}; ecgemm accumulates and returns "
                        f"float32 only")
    numbers = _dimension_numbers(dimension_numbers, lhs.shape, rhs.shape)
    c = _dot_general(lhs, rhs, numbers=numbers, mode=check_mode(mode))
    return c if out_sharding is None else jax.lax.with_sharding_constraint(c, out_sharding)


@functools.partial(jax.jit, static_argnames=("numbers", "mode"))
def _dot_general(lhs: jax.Array, rhs: jax.Array, numbers, mode: str) -> jax.Array:
    (lc, rc), (lb, rb) = numbers
    l_free = tuple(d for d in range(lhs.ndim) if d not in lc + lb)
    r_free = tuple(d for d in range(rhs.ndim) if d not in rc + rb)
    a, transpose_a = _canonical(lhs, lb, l_free, lc)
    b, transpose_b = _canonical(rhs, rb, rc, r_free)
    c = product(a, b, Product(transpose_a, transpose_b, mode, batched=bool(lb)))
    sizes = lambda x, dims: tuple(x.shape[d] for d in dims)  # noqa: E731
    return c.reshape(sizes(lhs, lb) + sizes(lhs, l_free) + sizes(rhs, r_free))


def _canonical(x: jax.Array, batch, first, second) -> Tuple[jax.Array, bool]:
    """`x` as (batch, first, second), or as (batch, second, first) read transposed
    (False/True), transposed in memory only when neither order is the one it has.

    With batch dimensions: a stack of matrices (each kind of dimension grouped into
    one). Without: the rows form (_target.py), which keeps every dimension but the
    last apart (each may have a sharding of its own); a last group of several
    dimensions is merged into one.
    """
    order, swapped = batch + first + second, batch + second + first
    identity = tuple(range(x.ndim))
    transpose = order != identity and swapped == identity
    if transpose:
        first, second = second, first
    elif order != identity:
        x = jnp.transpose(x, order)
        starts = (0, len(batch), len(batch) + len(first))
        batch, first, second = (tuple(range(s, s + len(g)))
                                for s, g in zip(starts, (batch, first, second)))
    size = lambda group: math.prod(x.shape[d] for d in group)  # noqa: E731
    if batch:
        return x.reshape(size(batch), size(first), size(second)), transpose
    if len(second) == 1 and first:
        return x, transpose
    return x.reshape((tuple(x.shape[d] for d in first) or (1,)) + (size(second),)), transpose


def _dimension_numbers(numbers, lhs_shape, rhs_shape):
    """`numbers` as hashable tuples, checked as ``lax.dot_general`` checks them."""
    try:
        (lc, rc), (lb, rb) = numbers
        lc, rc, lb, rb = (tuple(int(d) for d in dims) for dims in (lc, rc, lb, rb))
    except (TypeError, ValueError):
        raise ValueError(f"ecgemm.jax.dot_general: dimension_numbers must be "
                         f"((lhs_contracting, rhs_contracting), (lhs_batch, rhs_batch)), "
                         f"got {numbers!r}") from None
    for name, shape, dims in (("lhs", lhs_shape, lc + lb), ("rhs", rhs_shape, rc + rb)):
        if any(d < 0 or d >= len(shape) for d in dims) or len(set(dims)) != len(dims):
            raise ValueError(f"ecgemm.jax.dot_general: {name} has shape {shape}; its "
                             f"contracting and batch dimensions {dims} must be distinct "
                             f"dimensions in [0, {len(shape)})")
    for kind, l_dims, r_dims in (("contracting", lc, rc), ("batch", lb, rb)):
        l_sizes = tuple(lhs_shape[d] for d in l_dims)
        r_sizes = tuple(rhs_shape[d] for d in r_dims)
        if l_sizes != r_sizes:
            raise ValueError(f"ecgemm.jax.dot_general: the {kind} dimensions {l_dims} of lhs "
                             f"{lhs_shape} and {r_dims} of rhs {rhs_shape} differ in size "
                             f"({l_sizes} and {r_sizes})")
    return (lc, rc), (lb, rb)


def _operand(function: str, name: str, x) -> jax.Array:
    """`x` as a JAX array (NumPy arrays and tracers as JAX takes them), float32 only."""
    x = x if isinstance(x, jax.Array) else jnp.asarray(x)
    if x.dtype != jnp.float32:
        raise TypeError(f"ecgemm.jax.{function}: {name} has dtype {x.dtype}; ecgemm computes "
                        f"in float32 and never casts silently: pass {name}.astype(jnp.float32), "
                        f"or use jnp.{'matmul' if function == 'matmul' else 'lax.dot_general'} "
                        f"for other dtypes")
    return x
