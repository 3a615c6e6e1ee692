"""``enabled``: a ``TorchFunctionMode`` that sends PyTorch's float32 products to ecgemm."""

from __future__ import annotations

from typing import Any, Callable, Dict, Optional, Tuple

import torch
import torch.nn.functional as F
from torch.overrides import TorchFunctionMode

from .._modes import normalize_mode
from ._functions import bmm, linear, matmul, mm, routable
from ._ops import DEFAULT_MODE

# func -> (ecgemm function, names of its tensor arguments in func's signature).
# `a @ b` reaches the mode as Tensor.matmul; `v @ a` with v not a tensor as __rmatmul__.
_ROUTES: Dict[Callable, Tuple[Callable, Tuple[str, ...]]] = {
    torch.mm: (mm, ("input", "mat2")),
    torch.Tensor.mm: (mm, ("self", "mat2")),
    torch.bmm: (bmm, ("input", "mat2")),
    torch.Tensor.bmm: (bmm, ("self", "mat2")),
    torch.matmul: (matmul, ("input", "other")),
    torch.Tensor.matmul: (matmul, ("self", "other")),
    torch.Tensor.__matmul__: (matmul, ("self", "other")),
    torch.Tensor.__rmatmul__: (lambda a, b, mode: matmul(b, a, mode=mode), ("self", "other")),
    F.linear: (linear, ("input", "weight", "bias")),
}


class enabled(TorchFunctionMode):  # noqa: N801 - a context manager, named like torch.no_grad
    """Inside ``with ecgemm.torch.enabled(mode=...):``, products run on ecgemm.

    ``torch.mm``, ``torch.bmm``, ``torch.matmul``, ``torch.nn.functional.linear``
    (hence ``torch.nn.Linear``), the tensor methods ``mm``/``bmm``/``matmul`` and
    ``@`` go to ecgemm's operators when all their tensors are float32, dense and
    on one CUDA device (DTensors included). Everything else — other dtypes, CPU
    tensors, ``out=`` calls — runs as PyTorch runs it. Autograd and
    ``torch.compile`` see ``ecgemm::mm`` / ``ecgemm::bmm`` in place of the
    ``aten`` products.

    Parameters
    ----------
    mode : str
        One of ``ecgemm.MODES``; default ``"tf32tf32"``.
    """

    def __init__(self, mode: str = DEFAULT_MODE) -> None:
        super().__init__()
        self.mode = normalize_mode(mode, allow_none=False)

    def __torch_function__(self, func: Callable, types: Any, args: Tuple = (),
                           kwargs: Optional[Dict[str, Any]] = None) -> Any:
        kwargs = kwargs or {}
        route = _ROUTES.get(func)
        if route is not None:
            function, names = route
            tensors = _bind(names, args, kwargs)
            if tensors is not None and routable(*tensors):
                return function(*tensors, mode=self.mode)
        return func(*args, **kwargs)


def _bind(names: Tuple[str, ...], args: Tuple, kwargs: Dict[str, Any]) -> Optional[Tuple]:
    """The call's tensor arguments in `names` order, or None for a call PyTorch must handle.

    ``out=`` writes into a caller's tensor and stays with PyTorch, as does any
    argument these routes do not know (PyTorch then reports it).
    """
    if len(args) > len(names) or set(kwargs) - set(names[len(args):]):
        return None
    bound = list(args) + [kwargs.get(name) for name in names[len(args):]]
    required = 2  # the two factors; linear's bias may be None
    if any(value is None for value in bound[:required]):
        return None
    return tuple(bound)
