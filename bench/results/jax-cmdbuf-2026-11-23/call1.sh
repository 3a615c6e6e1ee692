#!/usr/bin/env bash
# Device call 1: ecgemm.jax with its scratch as the custom call's second result and
# kCmdBufferCompatible declared: build, the JAX tests (CPU and GPU halves, the command-buffer
# test included), where XLA's default flags place the call, and bench.jax_bench again.
set -o pipefail
W=/tmp/w1; mkdir -p $W
trap 'tar czf $OUT/call1.tgz -C $W .' EXIT
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $W/gpu.txt
python3 -c "import jax; print('jax', jax.__version__)" >> $W/gpu.txt
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"
grep -i "ecgemm.jax" $W/build.txt
(cd tests && timeout 300 python3 -m pytest -q -p no:cacheprovider -rfEs test_jax_gpu.py test_jax.py 2>&1) | tee $W/tests.txt | tail -4
# Where the default XLA flags put the call (no XLA_FLAGS set).
timeout 120 python3 - > $W/default_placement.txt 2>&1 <<'PY'
import jax, jax.numpy as jnp, ecgemm.jax as ej
import sys; sys.path.insert(0, "tests")
from jax_command_buffer_check import computations_with_the_call
w = jnp.ones((1024, 1024), jnp.float32)
step = lambda x: jnp.tanh(ej.matmul(jnp.tanh(ej.matmul(x, w)), w)).sum()
print("default XLA flags, MLP-like step:",
      computations_with_the_call(jax.jit(jax.grad(step)).lower(w).compile().as_text()))
PY
cat $W/default_placement.txt
timeout 240 python3 -m bench.jax_bench --out $W/bench > $W/bench.txt 2>&1; echo "bench exit $?"
tail -25 $W/bench.txt
