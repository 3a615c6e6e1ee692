"""Scratch memory for ``ecgemm::mm`` / ``ecgemm::bmm`` from PyTorch's caching allocator.

As PyTorch does for cuBLAS's workspace: the memory a call needs (split planes,
split-K partials) is taken on the call's stream from the caching allocator, so
``torch.cuda.memory_allocated()`` counts it, PyTorch reuses it for tensors, and
under ``torch.cuda.graph`` it comes from the graph's private pool.
"""

from __future__ import annotations

import threading

import torch

from .. import _ecgemm

# The raw entry points skip torch.cuda.device's context switch: ecgemm has already made
# the handle's device current when it asks for memory.
_raw_alloc = getattr(torch._C, "_cuda_cudaCachingAllocator_raw_alloc", None)
_raw_delete = getattr(torch._C, "_cuda_cudaCachingAllocator_raw_delete", None)


class CachingAllocator:
    """The stream-ordered allocator interface of ``ecgemm.Handle.set_allocator``."""

    def __init__(self, device: int) -> None:
        self.device = device

    def alloc(self, size: int, stream: int) -> int:
        if _raw_alloc is not None:
            return _raw_alloc(size, stream)
        return torch.cuda.caching_allocator_alloc(size, self.device, stream)

    def free(self, ptr: int, size: int, stream: int) -> None:
        # The caching allocator keeps the block on the stream it was taken on: work
        # queued there later may reuse it, as a stream-ordered free allows.
        if _raw_delete is not None:
            _raw_delete(ptr)
        else:
            torch.cuda.caching_allocator_delete(ptr)


_local = threading.local()


def torch_handle(device: int) -> "_ecgemm.Handle":
    """This thread's handle for `device` whose scratch comes from PyTorch."""
    handles = getattr(_local, "handles", None)
    if handles is None:
        handles = _local.handles = {}
    handle = handles.get(device)
    if handle is None:
        handle = _ecgemm.Handle(device=device)
        handle.set_allocator(CachingAllocator(device))
        handles[device] = handle
    return handle
