#!/usr/bin/env bash
# Device call 5 (nvidia-h200-x2): issue 27's two-GPU figure, ecgemm.jax's sharded product against
# twice one GPU's (bench/jax_sharded.py); NCCL's NVLink multicast off (KINDS.md).
set -o pipefail
export PYTHONUNBUFFERED=1 NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
W=/tmp/w5; mkdir -p $W
trap 'tar czf $OUT/call5.tgz -C $W .' EXIT
nvidia-smi --query-gpu=name,driver_version --format=csv > $W/gpu.txt
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"; tail -1 $W/build.txt
timeout 240 python3 -m bench.jax_sharded --out $W/sharded 2>&1 | tail -12
