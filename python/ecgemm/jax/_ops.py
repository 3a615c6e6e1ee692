"""The differentiable, batchable, shardable product behind ``ecgemm.jax``.

:func:`product` is ``_target``'s custom call (``op(a) @ op(b)`` on matrices or stacks
of one batch size) wrapped, outermost first, in JAX's public mechanism for each
transformation:

- ``jax.custom_vjp``: both gradients are products of the same kind, in the same mode;
- ``jax.custom_batching.custom_vmap``: a vmapped product becomes one larger product
  (:func:`stacked`), never a loop of calls;
- ``custom_partitioning`` (``_sharding.py``): under a sharded ``jit`` each device
  multiplies its shards, and the result is placed as ``jnp.matmul``'s would be.
"""

from __future__ import annotations

import functools
import math
from typing import Tuple

import jax
import jax.numpy as jnp
import numpy as np

from .._modes import normalize_mode
from . import _sharding
from ._target import Product, as_matrix, product_shape

DEFAULT_MODE = "tf32tf32"  # the library's default (ECGEMM_MODE_TF32TF32)


def product(a: jax.Array, b: jax.Array, p: Product) -> jax.Array:
    """``op(a) @ op(b)`` for canonical operands (2-D, or 3-D stacks of one batch size)."""
    return _differentiable(p)(a, b)


def stacked(a: jax.Array, b: jax.Array, p: Product) -> jax.Array:
    """``op(a) @ op(b)`` for N-D operands whose batch dimensions broadcast (NumPy rules):
    (*batch, m, n) from one product (`p`'s transposes and mode; its form is chosen here).

    A stack times one matrix is one product of the stack's rows when ``a``'s rows are
    rows of memory (not transposed); an operand whose batch has one item is shared by
    every product (stride 0); only batch shapes that broadcast across each other (say
    (3, 1) with (1, 4)) are materialised, as ``jnp.matmul`` does.
    """
    batch = tuple(np.broadcast_shapes(a.shape[:-2], b.shape[:-2]))
    count = math.prod(batch)
    m, n = product_shape(a.shape[-2:], b.shape[-2:], p._replace(batched=True))
    if math.prod(b.shape[:-2]) == 1 and not p.transpose_a:
        rows = product(a, b.reshape(b.shape[-2:]), p._replace(batched=False))
        return rows.reshape(batch + (m, n))
    c = product(_as_stack(a, batch, count), _as_stack(b, batch, count),
                p._replace(batched=True))
    return c.reshape(batch + (m, n))


def _as_stack(x: jax.Array, batch: Tuple[int, ...], count: int) -> jax.Array:
    """`x` as the custom call reads it: a shared matrix (2-D) or a stack of `count`."""
    if math.prod(x.shape[:-2]) == 1:
        return x.reshape(x.shape[-2:])
    if (1,) * (len(batch) - x.ndim + 2) + x.shape[:-2] != batch:
        x = jnp.broadcast_to(x, batch + x.shape[-2:])
    return x.reshape((count,) + x.shape[-2:])


# ---- the layers, one set per Product (closures: custom_vmap takes no static args) ----

@functools.lru_cache(maxsize=None)
def _differentiable(p: Product):
    batched = _batched(p)

    @jax.custom_vjp
    def f(a, b):
        return batched(a, b)

    def fwd(a, b):
        return batched(a, b), (a, b)

    def bwd(residuals, g):
        a, b = residuals
        return _reduce_to(_grad_a(g, b, p), a.shape), _reduce_to(_grad_b(g, a, p), b.shape)

    f.defvjp(fwd, bwd)
    return f


def _grad_a(g: jax.Array, b: jax.Array, p: Product) -> jax.Array:
    """dA for C = op(A)·op(B): dC·op(B)^T, or its transpose when A is read transposed."""
    if p.transpose_a:  # dA = (dC·op(B)^T)^T = op(B)·dC^T
        return product(b, g, p._replace(transpose_a=p.transpose_b, transpose_b=True))
    return product(g, b, p._replace(transpose_a=False, transpose_b=not p.transpose_b))


def _grad_b(g: jax.Array, a: jax.Array, p: Product) -> jax.Array:
    """dB for C = op(A)·op(B): op(A)^T·dC, or its transpose when B is read transposed."""
    if p.transpose_b:  # dB = (op(A)^T·dC)^T = dC^T·op(A)
        return product(g, a, p._replace(transpose_a=True, transpose_b=p.transpose_a))
    return product(a, g, p._replace(transpose_a=not p.transpose_a, transpose_b=False))


def _reduce_to(grad: jax.Array, shape: Tuple[int, ...]) -> jax.Array:
    """A shared operand's gradient (stacks): the sum of its per-product gradients."""
    return grad.sum(axis=0) if grad.ndim > len(shape) else grad


@functools.lru_cache(maxsize=None)
def _batched(p: Product):
    @jax.custom_batching.custom_vmap
    def f(a, b):
        return _sharding.partitioned(a, b, p)

    @f.def_vmap
    def rule(axis_size, in_batched, a, b):
        # Each operand as (vmapped axis, its own batch or 1, matrix): the vmapped
        # product is then one product of stacks (stacked folds or shares as it can).
        shape = product_shape(a.shape[1:] if in_batched[0] else a.shape,
                              b.shape[1:] if in_batched[1] else b.shape, p)
        if not p.batched:  # each operand as one matrix (or a stack of them)
            a, b = (_rows(x, batched) for x, batched in zip((a, b), in_batched))
        a4, b4 = (_lead(x, batched) for x, batched in zip((a, b), in_batched))
        c = stacked(a4, b4, p)
        return c.reshape((axis_size,) + shape), True

    return f


def _rows(x: jax.Array, batched: bool) -> jax.Array:
    """An operand of the rows form as a matrix, or a stack of them when `batched`."""
    if not batched:
        return as_matrix(x)
    return x.reshape(x.shape[0], math.prod(x.shape[1:-1]), x.shape[-1])


def _lead(x: jax.Array, batched: bool) -> jax.Array:
    """A canonical operand (2-D or 3-D, with the vmapped axis in front when `batched`)
    as a 4-D stack: (vmapped axis or 1, own batch or 1, rows, columns)."""
    if not batched:
        x = x[None]
    return x if x.ndim == 4 else x[:, None]


def check_mode(mode) -> str:
    """`mode` (None: the library's default) as one of ``ecgemm.MODES``."""
    return DEFAULT_MODE if mode is None else normalize_mode(mode, allow_none=False)
