"""``Linear``: ``torch.nn.Linear`` whose product runs on ecgemm."""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import Tensor

from .._modes import normalize_mode
from ._functions import linear, routable
from ._ops import DEFAULT_MODE


class Linear(torch.nn.Linear):
    """A drop-in ``torch.nn.Linear`` computing ``x @ weight.T + bias`` with ecgemm.

    A subclass of ``torch.nn.Linear``: the same parameters, initialisation and
    ``state_dict`` keys, and ``isinstance(m, torch.nn.Linear)`` holds, so
    tensor-parallel plans (``ColwiseParallel``, ``RowwiseParallel``) shard it as
    they shard a ``torch.nn.Linear``. Float32 inputs on a CUDA device go through
    ``ecgemm::mm`` (both gradients by ecgemm too); other dtypes and devices run
    PyTorch's ``F.linear``, so a model still initialises, moves and runs on the
    CPU or in half precision.

    Parameters
    ----------
    in_features, out_features, bias, device, dtype
        As in ``torch.nn.Linear``.
    mode : str
        One of ``ecgemm.MODES``; default ``"tf32tf32"``.
    """

    def __init__(self, in_features: int, out_features: int, bias: bool = True,
                 device=None, dtype=None, *, mode: str = DEFAULT_MODE) -> None:
        super().__init__(in_features, out_features, bias, device, dtype)
        self.mode = normalize_mode(mode, allow_none=False)

    def forward(self, input: Tensor) -> Tensor:
        if routable(input, self.weight, self.bias):
            return linear(input, self.weight, self.bias, mode=self.mode)
        return F.linear(input, self.weight, self.bias)

    def extra_repr(self) -> str:
        return f"{super().extra_repr()}, mode={self.mode!r}"

    @classmethod
    def from_linear(cls, module: torch.nn.Linear, *, mode: str = DEFAULT_MODE) -> "Linear":
        """An ecgemm ``Linear`` sharing `module`'s parameters (no copy)."""
        new = cls(module.in_features, module.out_features, module.bias is not None,
                  device="meta", mode=mode)
        new.weight = module.weight
        new.bias = module.bias
        return new
