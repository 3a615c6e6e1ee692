"""Sharding of the custom call under ``jit``: ``custom_partitioning`` with a matmul's rule.

The product is ``[b] m k, [b] k n -> [b] m n`` (dimensions named after what they are,
whatever the transposes; in the rows form each row dimension is a factor of its own,
``m0 m1 k0, k0 n0 -> m0 m1 n0``), with ``k`` a reduction factor: the same factors as
``jnp.matmul``'s ``dot_general``, so Shardy (or GSPMD, through
``infer_sharding_from_operands``) propagates shardings through it as through
``jnp.matmul`` and places the result where ``jnp.matmul``'s would be. Each device then
runs the custom call on its shards; where the contraction is sharded, the partial
products are summed over those mesh axes (``psum``, an all-reduce: NCCL on GPUs).

Inside ``shard_map`` every mesh axis is manual and ``custom_partitioning`` calls the
custom call on the local blocks directly.
"""

from __future__ import annotations

from typing import Dict, List, NamedTuple, Optional, Sequence, Tuple

import jax
from jax.experimental.custom_partitioning import custom_partitioning
from jax.sharding import NamedSharding, PartitionSpec

from ._target import Product, as_matrix, call_target, product_shape

Axes = Tuple[str, ...]  # the mesh axes one dimension is split over, major to minor


class Equation(NamedTuple):
    """The product's dimensions by factor: batch "b", rows "m", columns "n", contraction
    "k" (numbered in the rows form, where an operand may have several of one kind)."""

    a: Tuple[str, ...]
    b: Tuple[str, ...]
    out: Tuple[str, ...]
    product: Product

    @classmethod
    def of(cls, a_ndim: int, b_ndim: int, p: Product) -> Optional["Equation"]:
        """The equation, or None where the two operands group k differently."""
        if p.batched:
            a = (("b",) if a_ndim == 3 else ()) + (("k", "m") if p.transpose_a else ("m", "k"))
            b = (("b",) if b_ndim == 3 else ()) + (("n", "k") if p.transpose_b else ("k", "n"))
            out = (("b",) if 3 in (a_ndim, b_ndim) else ()) + ("m", "n")
            return cls(a, b, out, p)
        lead_a, lead_b = _group("k" if p.transpose_a else "m", a_ndim - 1), \
            _group("n" if p.transpose_b else "k", b_ndim - 1)
        a = lead_a + (("m0",) if p.transpose_a else ("k0",))
        b = lead_b + (("k0",) if p.transpose_b else ("n0",))
        if sorted(f for f in a if f[0] == "k") != sorted(f for f in b if f[0] == "k"):
            return None
        out = tuple(f for f in a + b if f[0] == "m") + tuple(f for f in b if f[0] == "n")
        return cls(a, b, out, p)

    def rule(self) -> str:
        return f"{' '.join(self.a)}, {' '.join(self.b)} -> {' '.join(self.out)}"

    def reduced(self) -> Tuple[str, ...]:
        return tuple(f for f in self.a if f not in self.out)


def _group(name: str, count: int) -> Tuple[str, ...]:
    return tuple(f"{name}{i}" for i in range(count))


def partitioned(a: jax.Array, b: jax.Array, p: Product) -> jax.Array:
    """The custom call, partitioned along its operands' shardings under ``jit``."""
    eq = Equation.of(a.ndim, b.ndim, p)
    if eq is not None:
        return _partitioned(a, b, eq)
    # The contraction grouped differently on the two sides: as matrices.
    shape = product_shape(a.shape, b.shape, p)
    return _partitioned(as_matrix(a), as_matrix(b), Equation.of(2, 2, p)).reshape(shape)


def _call(a, b, eq: Equation):
    return call_target(a, b, eq.product)


_partitioned = custom_partitioning(_call, static_argnums=(2,))


def factor_axes(eq: Equation, specs: Sequence[PartitionSpec]) -> Dict[str, Axes]:
    """The mesh axes each factor is split over, read from the operands' specs.

    The result's factors first (batch, rows from ``a``, columns from ``b``), then the
    contraction (from ``a``, then ``b``); a mesh axis serves one factor only (the
    first that claims it), as one dimension of the result can use it.
    """
    dims = [_dims(spec, len(labels)) for spec, labels in zip(specs, (eq.a, eq.b))]
    used: set = set()
    found: Dict[str, Axes] = {}
    for factor in dict.fromkeys(eq.out + eq.reduced()):
        found[factor] = ()
        for operand, labels in enumerate((eq.a, eq.b)):
            if factor not in labels:
                continue
            axes = dims[operand][labels.index(factor)]
            if axes and not used.intersection(axes):
                found[factor] = axes
                used.update(axes)
                break
    return found


def spec_for(labels: str, axes: Dict[str, Axes]) -> PartitionSpec:
    return PartitionSpec(*(_entry(axes[factor]) for factor in labels))


def _dims(spec: PartitionSpec, ndim: int) -> List[Axes]:
    entries = list(spec) + [None] * (ndim - len(spec))
    return [() if e is None else (e,) if isinstance(e, str) else tuple(e) for e in entries]


def _entry(axes: Axes):
    return None if not axes else axes[0] if len(axes) == 1 else axes


def _named_specs(mesh, shapes) -> List[PartitionSpec]:
    specs = []
    for shape in shapes:
        if not isinstance(shape.sharding, NamedSharding):
            raise ValueError(
                "ecgemm.jax: sharded operands need their mesh in context to be partitioned "
                f"(got {type(shape.sharding).__name__}): call the jitted function inside "
                "`with jax.sharding.use_mesh(mesh):` (or jax.set_mesh(mesh))")
        specs.append(shape.sharding.spec)
    return specs


def _partition(eq: Equation, mesh, arg_shapes, result_shape):
    axes = factor_axes(eq, _named_specs(mesh, arg_shapes))
    reduce_over = tuple(axis for factor in eq.reduced() for axis in axes[factor])

    def local_product(a, b):
        c = call_target(a, b, eq.product)
        return jax.lax.psum(c, reduce_over) if reduce_over else c

    args = tuple(NamedSharding(mesh, spec_for(labels, axes)) for labels in (eq.a, eq.b))
    # The result of the all-reduce is whole along k's axes.
    result = NamedSharding(mesh, spec_for(eq.out, axes))
    return mesh, local_product, result, args


def _infer_sharding_from_operands(eq: Equation, mesh, arg_shapes, result_shape):
    axes = factor_axes(eq, _named_specs(mesh, arg_shapes))
    return NamedSharding(mesh, spec_for(eq.out, axes))


def _sharding_rule(eq: Equation, mesh, operand_types, result_types):
    return eq.rule(), {"reduction_factors": eq.reduced()}


_partitioned.def_partition(
    partition=_partition,
    infer_sharding_from_operands=_infer_sharding_from_operands,
    sharding_rule=_sharding_rule)
