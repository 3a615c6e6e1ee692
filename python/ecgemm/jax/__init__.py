"""ecgemm for JAX: ``matmul`` and ``dot_general`` as an XLA FFI custom call.

``import ecgemm.jax`` registers the custom call ``ecgemm_matmul`` with XLA (its
handler runs ecgemm on the stream XLA gives it) and provides

- :func:`matmul`: ``jnp.matmul`` (1-D, 2-D and broadcast N-D operands),
- :func:`dot_general`: ``jax.lax.dot_general`` (e.g. for ``flax.linen.Dense``),

for float32 arrays on CUDA devices, under ``jit``, ``vmap`` (one batched ecgemm call),
``grad`` (both gradients by ecgemm in the same mode), ``lax.scan``, ``shard_map`` and
sharded ``jit`` (the result placed as ``jnp.matmul``'s would be).

>>> import jax.numpy as jnp, ecgemm.jax as ej                  # doctest: +SKIP
>>> c = ej.matmul(a, b, mode="tf32tf32")                       # like a @ b, FP32-accurate
>>> loss = lambda w, x: ej.matmul(x, w).sum()
>>> g = jax.jit(jax.grad(loss))(w, x)

``import ecgemm`` alone never imports JAX.
"""

try:
    import jax as _jax  # noqa: F401  (the top-level package, not this one)
except ImportError as error:  # pragma: no cover - exercised where jax is missing
    raise ImportError("ecgemm.jax needs JAX: pip install 'jax[cuda13]' (or jax[cuda12]), "
                      "then rebuild ecgemm so that it builds its XLA FFI handler "
                      "(README.md, JAX)") from error

from ._handler import register as _register

_register()

from ._functions import dot_general, matmul  # noqa: E402
from ._ops import DEFAULT_MODE  # noqa: E402

__all__ = ["DEFAULT_MODE", "dot_general", "matmul"]
