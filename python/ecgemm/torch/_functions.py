"""``mm``, ``bmm``, ``matmul`` and ``linear`` with PyTorch's semantics, computed by ecgemm.

``matmul`` and ``linear`` are made of the two operators and of PyTorch's own view
and broadcasting ops, so autograd, ``torch.compile`` and DTensor follow them
without formulas of their own.
"""

from __future__ import annotations

from typing import Optional

import torch
from torch import Tensor

from .._modes import normalize_mode
from ._ops import DEFAULT_MODE

# What enabled() and Linear send to the operators: CUDA tensors, and meta tensors
# (shapes only: a model built on "meta" traces the same operators).
ROUTED_DEVICES = ("cuda", "meta")


def mm(a: Tensor, b: Tensor, *, mode: str = DEFAULT_MODE) -> Tensor:
    """``torch.mm(a, b)`` for float32 CUDA matrices, computed by ecgemm in `mode`.

    Differentiable (both gradients computed by ecgemm in the same mode) and
    traceable by ``torch.compile``. Raises ``TypeError`` for operands that are
    not float32 CUDA tensors and ``ValueError`` for shapes that do not agree.
    """
    return torch.ops.ecgemm.mm(a, b, normalize_mode(mode, allow_none=False))


def bmm(a: Tensor, b: Tensor, *, mode: str = DEFAULT_MODE) -> Tensor:
    """``torch.bmm(a, b)``: (B, m, k) @ (B, k, n) -> (B, m, n), as :func:`mm`."""
    return torch.ops.ecgemm.bmm(a, b, normalize_mode(mode, allow_none=False))


def matmul(a: Tensor, b: Tensor, *, mode: str = DEFAULT_MODE) -> Tensor:
    """``torch.matmul(a, b)`` (1-D, 2-D and broadcast N-D operands) by ecgemm.

    As PyTorch does: a 1-D operand is a row (left) or column (right) vector
    whose dimension is dropped from the result; a stack of matrices times one
    matrix folds the stack into the rows of one product; other stacks broadcast
    (materialising broadcast operands, as ``torch.matmul`` does) and go through
    one batched product.
    """
    if a.dim() == 0 or b.dim() == 0:
        raise ValueError(f"matmul needs operands of at least one dimension, got shapes "
                         f"{tuple(a.shape)} and {tuple(b.shape)}")
    if a.dim() == 1 and b.dim() == 1:  # a dot product: a 1 x 1 matrix, then a scalar
        return mm(a.unsqueeze(0), b.unsqueeze(-1), mode=mode).reshape(())
    if a.dim() == 1:
        return matmul(a.unsqueeze(0), b, mode=mode).squeeze(-2)
    if b.dim() == 1:
        return matmul(a, b.unsqueeze(-1), mode=mode).squeeze(-1)
    if a.dim() == 2 and b.dim() == 2:
        return mm(a, b, mode=mode)
    if b.dim() == 2:
        rows = a.reshape(-1, a.shape[-1])  # a view whenever a's stack allows one
        return mm(rows, b, mode=mode).reshape(*a.shape[:-1], b.shape[-1])
    (m, k), (k_b, n) = a.shape[-2:], b.shape[-2:]
    if k != k_b:
        raise ValueError(f"matmul: a has shape {tuple(a.shape)} and b has shape "
                         f"{tuple(b.shape)}: the contraction dimensions {k} and {k_b} differ")
    batch = torch.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    a3 = a.expand(*batch, m, k).reshape(-1, m, k)
    b3 = b.expand(*batch, k, n).reshape(-1, k, n)
    return bmm(a3, b3, mode=mode).reshape(*batch, m, n)


def linear(x: Tensor, weight: Tensor, bias: Optional[Tensor] = None, *,
           mode: str = DEFAULT_MODE) -> Tensor:
    """``torch.nn.functional.linear``: ``x @ weight.T + bias``, the product by ecgemm.

    `weight` is read transposed in place (no copy); the bias is added by PyTorch.
    """
    y = matmul(x, weight.mT, mode=mode)
    return y if bias is None else y + bias


def routable(*tensors: Optional[Tensor]) -> bool:
    """True when ecgemm computes a product of these tensors (None entries ignored).

    Float32, dense, on one CUDA device (or meta/fake tensors standing for one):
    what :func:`enabled` and :class:`Linear` send to ecgemm; everything else
    stays with PyTorch.
    """
    devices = set()
    for t in tensors:
        if t is None:
            continue
        if not isinstance(t, Tensor) or t.dtype != torch.float32 or t.layout != torch.strided:
            return False
        devices.add(t.device)
    return len(devices) == 1 and next(iter(devices)).type in ROUTED_DEVICES
