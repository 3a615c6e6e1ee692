#!/usr/bin/env bash
# Device call 3 (two H200s): the handler's scratch is now a result of the custom call, so
# the sharded paths (custom_partitioning, shard_map) run again on two GPUs.
set -o pipefail
export PYTHONUNBUFFERED=1 NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
W=/tmp/j3; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call3.tgz -C $W .' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader > $W/gpu.txt
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"
(cd tests && timeout 200 python3 -m pytest -q -p no:cacheprovider -rfEs test_jax_gpu.py -k "two_gpus or command_buffer" 2>&1) \
  | tee $W/tests.txt | tail -3
