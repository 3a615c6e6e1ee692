"""ecgemm for PyTorch: operators, autograd, ``torch.compile``, DTensor, ``Linear``.

``import ecgemm.torch`` registers two ``torch.library`` operators,

- ``torch.ops.ecgemm.mm(a, b, mode)``: (m, k) @ (k, n),
- ``torch.ops.ecgemm.bmm(a, b, mode)``: (B, m, k) @ (B, k, n),

for float32 CUDA tensors (any layout with one unit stride is read in place; the
result is a new contiguous tensor computed on PyTorch's current stream), with
fake kernels (``torch.compile(fullgraph=True)`` traces them), autograd formulas
computing both gradients with ecgemm in the same mode, and DTensor sharding
strategies (the ones PyTorch uses for ``torch.mm`` / ``torch.bmm``).

>>> import torch, ecgemm.torch as et                            # doctest: +SKIP
>>> y = et.mm(x, w)                       # like torch.mm, FP32-accurate on Tensor Cores
>>> layer = et.Linear(4096, 4096, device="cuda")   # drop-in torch.nn.Linear
>>> with et.enabled(mode="tf32tf32"):     # torch.mm / matmul / bmm / F.linear / @ -> ecgemm
...     loss = model(x).sum()

Public names: :func:`mm`, :func:`bmm`, :func:`matmul`, :func:`linear`,
:class:`Linear`, :class:`enabled`. ``import ecgemm`` alone never imports PyTorch.
"""

try:
    import torch as _torch  # noqa: F401  (the top-level package, not this one)
except ImportError as error:  # pragma: no cover - exercised where torch is missing
    raise ImportError("ecgemm.torch needs PyTorch: pip install torch") from error

from . import _dtensor
from ._functions import bmm, linear, matmul, mm
from ._linear import Linear
from ._mode import enabled
from ._ops import DEFAULT_MODE

__all__ = ["DEFAULT_MODE", "Linear", "bmm", "enabled", "linear", "matmul", "mm"]

_dtensor.register()
