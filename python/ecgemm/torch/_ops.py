"""The operators ``ecgemm::mm`` and ``ecgemm::bmm``: kernel, fake kernel and autograd formula.

Registered with ``torch.library`` so that autograd, ``torch.compile`` (through the
fake kernel) and DTensor (``_dtensor.py``) treat them as they treat ``aten::mm``.
The kernel runs ecgemm on PyTorch's current stream and reads any layout with one
unit stride in place; only layouts ecgemm cannot describe (an expanded gradient
with zero strides, say) are copied.
"""

from __future__ import annotations

from typing import Optional, Sequence

import torch
from torch import Tensor

from .._api import matmul as _ecgemm_matmul
from .._layout import column_major_ld
from .._modes import normalize_mode
from ._memory import torch_handle

DEFAULT_MODE = "tf32tf32"  # the library's default (ECGEMM_MODE_TF32TF32)
COMPUTE_DEVICES = ("cuda",)


def check_operands(op: str, a: Tensor, b: Tensor, mode: str, ndim: int,
                   devices: Optional[Sequence[str]]) -> str:
    """Raise the error a caller of ``ecgemm::<op>`` needs; return the normalised mode.

    Shared by the kernel and the fake kernel, so that ``torch.compile`` and
    DTensor report a bad call while tracing, in the same words as eager mode.
    The fake kernel checks no device (`devices` None): DTensor infers output
    shapes on fake CPU tensors whatever the mesh's device.
    """
    mode = normalize_mode(mode, allow_none=False)
    for name, t in (("a", a), ("b", b)):
        if t.dtype != torch.float32:
            raise TypeError(f"ecgemm::{op}: {name} has dtype {t.dtype}; ecgemm computes in "
                            f"float32 and never casts silently: pass {name}.float(), or use "
                            f"torch.{op} for other dtypes")
        if t.layout != torch.strided:
            raise TypeError(f"ecgemm::{op}: {name} has layout {t.layout}; ecgemm reads "
                            f"strided (dense) tensors: pass {name}.to_dense()")
        if devices is not None and t.device.type not in devices:
            raise TypeError(f"ecgemm::{op}: {name} is on {t.device}, but ecgemm computes on "
                            f"CUDA GPUs: move it with {name}.cuda(), or use torch.{op} "
                            f"on {t.device.type} tensors")
        if t.dim() != ndim:
            raise ValueError(f"ecgemm::{op}: {name} must be {ndim}-D, got shape "
                             f"{tuple(t.shape)}")
    if a.device != b.device:
        raise ValueError(f"ecgemm::{op}: a is on {a.device} and b on {b.device}; "
                         f"put both on one device")
    if a.shape[-1] != b.shape[-2]:
        raise ValueError(f"ecgemm::{op}: a has shape {tuple(a.shape)} and b has shape "
                         f"{tuple(b.shape)}: the contraction dimensions {a.shape[-1]} and "
                         f"{b.shape[-2]} differ")
    if ndim == 3 and a.shape[0] != b.shape[0]:
        raise ValueError(f"ecgemm::{op}: a has {a.shape[0]} matrices and b has "
                         f"{b.shape[0]}; bmm does not broadcast (ecgemm.torch.matmul does)")
    return mode


def readable(t: Tensor) -> Tensor:
    """`t` (detached) where ecgemm reads its layout in place, else a contiguous copy.

    ecgemm reads a matrix with a unit stride along either dimension; zero or
    other strides (``expand``, ``x[:, ::2]``) are the only case that copies.
    """
    rows, cols = t.shape[-2], t.shape[-1]
    row_stride, col_stride = t.stride(-2), t.stride(-1)
    if (column_major_ld(rows, cols, row_stride, col_stride) is None
            and column_major_ld(cols, rows, col_stride, row_stride) is None):
        t = t.contiguous()
    # Detached: __cuda_array_interface__ refuses tensors that require grad.
    return t.detach()


def product(a: Tensor, b: Tensor, out: Tensor, mode: str) -> None:
    """``out = a @ b`` on PyTorch's current stream, scratch from PyTorch's allocator; 3-D
    operands as one batched ecgemm call (strided, or pointer arrays when a stack's strides
    do not reduce to one)."""
    _ecgemm_matmul(a, b, out=out, mode=mode, handle=torch_handle(out.device.index))


# ---- ecgemm::mm -------------------------------------------------------------------

@torch.library.custom_op("ecgemm::mm", mutates_args=())
def _mm(a: Tensor, b: Tensor, mode: str = DEFAULT_MODE) -> Tensor:
    mode = check_operands("mm", a, b, mode, 2, COMPUTE_DEVICES)
    out = torch.empty((a.shape[0], b.shape[1]), dtype=torch.float32, device=a.device)
    if out.numel():  # k = 0 still writes zeros: ecgemm computes C = 0·C without reading C
        product(readable(a), readable(b), out, mode)
    return out


@_mm.register_fake
def _mm_fake(a: Tensor, b: Tensor, mode: str = DEFAULT_MODE) -> Tensor:
    check_operands("mm", a, b, mode, 2, None)
    return a.new_empty((a.shape[0], b.shape[1]))


# ---- ecgemm::bmm ------------------------------------------------------------------

@torch.library.custom_op("ecgemm::bmm", mutates_args=())
def _bmm(a: Tensor, b: Tensor, mode: str = DEFAULT_MODE) -> Tensor:
    mode = check_operands("bmm", a, b, mode, 3, COMPUTE_DEVICES)
    out = torch.empty((a.shape[0], a.shape[1], b.shape[2]), dtype=torch.float32,
                      device=a.device)
    if out.numel():
        product(readable(a), readable(b), out, mode)
    return out


@_bmm.register_fake
def _bmm_fake(a: Tensor, b: Tensor, mode: str = DEFAULT_MODE) -> Tensor:
    check_operands("bmm", a, b, mode, 3, None)
    return a.new_empty((a.shape[0], a.shape[1], b.shape[2]))


# ---- autograd: both gradients by ecgemm, in the forward product's mode ------------

def _save_for_product_backward(ctx, inputs, output) -> None:
    a, b, mode = inputs
    ctx.mode = mode
    need_a, need_b = ctx.needs_input_grad[:2]
    # dA needs B and dB needs A: keep only what a requested gradient uses.
    ctx.save_for_backward(b if need_a else None, a if need_b else None)


def _product_backward(op):
    def backward(ctx, grad: Tensor):
        b, a = ctx.saved_tensors
        grad_a = op(grad, b.mT, ctx.mode) if ctx.needs_input_grad[0] else None  # dC·Bᵀ
        grad_b = op(a.mT, grad, ctx.mode) if ctx.needs_input_grad[1] else None  # Aᵀ·dC
        return grad_a, grad_b, None
    return backward


# The formulas call the operators themselves, so double backward, torch.compile
# and DTensor see ecgemm products in the backward pass too.
_mm.register_autograd(_product_backward(torch.ops.ecgemm.mm),
                      setup_context=_save_for_product_backward)
_bmm.register_autograd(_product_backward(torch.ops.ecgemm.bmm),
                       setup_context=_save_for_product_backward)
