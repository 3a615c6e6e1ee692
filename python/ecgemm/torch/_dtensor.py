"""DTensor sharding strategies for ``ecgemm::mm`` and ``ecgemm::bmm``.

The strategies are the ones PyTorch gives ``aten::mm`` and ``aten::bmm`` (its
einsum rules, per mesh dimension, in its order), registered through the public
``register_sharding``; DTensor expands them over the mesh, prices the
redistributions and picks the cheapest as for its own products (tests/test_torch.py
checks the same result placement as torch.mm for every Replicate/Shard/Partial
input on 1-D and 2-D meshes). A contraction-sharded product leaves ``Partial`` sums
that DTensor reduces with its own collectives (NCCL on GPUs) when the result is
redistributed. Not covered: ``_StridedShard`` inputs (FSDP2 with TP), which PyTorch's
own products keep and these strategies first redistribute to ``Shard``.
"""

from __future__ import annotations

from typing import List, Optional, Tuple

import torch

Placements = List[Optional[object]]


def product_strategies(batched: bool) -> List[Tuple[Placements, Placements]]:
    """(output, inputs) placements on one mesh dimension for ``[b]mk,[b]kn->[b]mn``.

    The inputs list ends with None for the ``mode`` argument (not a tensor).
    """
    from torch.distributed.tensor import Partial, Replicate, Shard

    lead = 1 if batched else 0  # index of m in the 3-D operands
    r = Replicate()
    # PyTorch's order (replicate, batch, contraction, rows, columns, linearity):
    # DTensor takes the first of equally cheap strategies, so the order decides ties.
    strategies = [([r], [r, r, None])]
    if batched:
        strategies.append(([Shard(0)], [Shard(0), Shard(0), None]))    # the batch
    strategies += [
        ([Partial()], [Shard(lead + 1), Shard(lead), None]),           # k: partial sums
        ([Shard(lead)], [Shard(lead), r, None]),                       # rows of a
        ([Shard(lead + 1)], [r, Shard(lead + 1), None]),               # columns of b
    ]
    # A product is linear in each factor: one Partial factor times a replicated one.
    for reduce_op in getattr(Partial, "LINEAR_REDUCE_OPS", ("sum",)):  # newer PyTorch: sum, avg
        strategies.append(([Partial(reduce_op)], [Partial(reduce_op), r, None]))
        strategies.append(([Partial(reduce_op)], [r, Partial(reduce_op), None]))
    return strategies


def register() -> bool:
    """Register the strategies with DTensor; False where torch.distributed is missing."""
    if not torch.distributed.is_available():
        return False
    from torch.distributed.tensor.experimental import register_sharding

    for op, batched in ((torch.ops.ecgemm.mm.default, False),
                        (torch.ops.ecgemm.bmm.default, True)):
        register_sharding(op)(_strategy_function(batched))
    return True


def _strategy_function(batched: bool):
    def strategies(*args, **kwargs) -> List[Tuple[Placements, Placements]]:
        from torch.distributed.tensor import Shard

        candidates = product_strategies(batched)
        # As PyTorch's own products: shard only where an input already is sharded
        # (it fills its sharding placeholders from the inputs' placements), so that
        # replicated or partial inputs never turn into a sharded result.
        specs = [arg for arg in args[:2] if hasattr(arg, "placements")]
        if not any(isinstance(p, Shard) for spec in specs for p in spec.placements):
            candidates = [(out, inputs) for out, inputs in candidates
                          if not any(isinstance(p, Shard) for p in out + inputs)]
        # One input placement per argument given (mode may be left to its default).
        given = len(args) + len(kwargs)
        return [(out, inputs[:given]) for out, inputs in candidates]
    return strategies
