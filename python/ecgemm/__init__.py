"""ecgemm: error-corrected single-precision GEMM on NVIDIA Tensor Cores.

FP32-accurate matrix products computed on Tensor Cores by splitting each float32
into a high and a low part (Ootomo & Yokota, 2022). Operands are NumPy arrays
(copied to the GPU and back) or GPU arrays with ``__cuda_array_interface__``
(CuPy, PyTorch, Numba: used in place).

>>> import numpy as np, ecgemm
>>> a = np.random.rand(512, 256).astype(np.float32)
>>> c = ecgemm.matmul(a, a.T)                       # doctest: +SKIP

Public names: :func:`matmul`, :func:`sgemm`, :func:`explain`, :class:`Handle`, :data:`MODES`,
:class:`EcgemmError`, :func:`device_count`, :func:`get_include`, :func:`get_library_dir`,
:func:`intercept_cublas` (for a process started with ``LD_PRELOAD=$(python -m ecgemm --preload)``).
"""

from ._api import explain, matmul, sgemm
from ._ecgemm import Handle, device_count
from ._ecgemm import version as _library_version
# Private entry points for ecgemm's own tests and numerics lab (not part of the API).
from ._ecgemm import _split_device, _split_host, _validate  # noqa: F401
from ._ecgemm import device_properties as _device_properties  # noqa: F401
from ._ecgemm import workspace_usage as _workspace_usage  # noqa: F401
from ._errors import EcgemmError
from ._intercept import intercept_cublas
from ._modes import MODES
from ._paths import get_include, get_library_dir

__version__ = _library_version()

__all__ = ["EcgemmError", "Handle", "MODES", "device_count", "explain", "get_include",
           "get_library_dir", "intercept_cublas", "matmul", "sgemm"]

