"""The custom call ``ecgemm_matmul`` on one device's operands, and what it computes.

``c = op(a) @ op(b)`` for float32 operands, in one of two forms (:class:`Product`):

- stacks (``batched``): ``a`` is (m, k), or (k, m) when ``transpose_a``; ``b`` is
  (k, n), or (n, k) when ``transpose_b``; either may lead with a batch dimension of the
  result's size, and one without it is shared by every product (stride 0);
- rows (not ``batched``): every dimension of an operand but its last is one of its
  rows, merged per device into one (a reshape of a row-major array, which moves
  nothing): ``a`` (*m, k) @ ``b`` (k, n) is (*m, n). Kept apart until the call so that
  each of those dimensions keeps its own sharding.

The handler (``_ffi.cpp``) runs it as one ecgemm call on XLA's stream:
``ecgemm_sgemm_64``, or ``ecgemm_sgemm_strided_batched_64`` for a stack. Its scratch is
the call's second result, a uint8 buffer sized here while tracing, so that XLA owns it
and may record the call into a command buffer (CUDA graph).
"""

from __future__ import annotations

import math
from typing import NamedTuple, Sequence, Tuple

import jax
import jax.numpy as jnp
import numpy as np

from .._modes import MODES
from ._handler import TARGET, workspace_bytes


class Product(NamedTuple):
    """What the custom call computes, besides its operands: static under every transform."""

    transpose_a: bool
    transpose_b: bool
    mode: str  # one of ecgemm.MODES
    batched: bool  # stacks (3-D operands lead with the batch), else rows (see above)


def product_shape(a_shape: Sequence[int], b_shape: Sequence[int], p: Product) -> Tuple[int, ...]:
    """The result's shape; the operands' shapes are assumed to agree."""
    if not p.batched:
        m = a_shape[-1:] if p.transpose_a else a_shape[:-1]
        n = b_shape[:-1] if p.transpose_b else b_shape[-1:]
        return tuple(m) + tuple(n)
    m = a_shape[-1] if p.transpose_a else a_shape[-2]
    n = b_shape[-2] if p.transpose_b else b_shape[-1]
    batch = tuple(a_shape[:-2]) or tuple(b_shape[:-2])
    return batch + (m, n)


def call_target(a: jax.Array, b: jax.Array, p: Product) -> jax.Array:
    """The custom call on one device's operands (what each shard runs)."""
    shape = product_shape(a.shape, b.shape, p)
    if not p.batched:
        a, b = as_matrix(a), as_matrix(b)
    out = product_shape(a.shape, b.shape, p)
    mode = MODES.index(p.mode)
    scratch = workspace_bytes(a.shape, b.shape, out, mode, p.transpose_a, p.transpose_b)
    # vmap never reaches the call itself (custom_vmap above it takes every vmap);
    # "sequential" is only the correct answer should something batch it directly.
    call = jax.ffi.ffi_call(TARGET, (jax.ShapeDtypeStruct(out, jnp.float32),
                                     jax.ShapeDtypeStruct((scratch,), jnp.uint8)),
                            vmap_method="sequential")
    c, _ = call(a, b, mode=np.int32(mode),
                transpose_a=bool(p.transpose_a), transpose_b=bool(p.transpose_b))
    return c.reshape(shape)


def as_matrix(x: jax.Array) -> jax.Array:
    """`x` with every dimension but the last merged into its rows."""
    return x.reshape(math.prod(x.shape[:-1]), x.shape[-1])
