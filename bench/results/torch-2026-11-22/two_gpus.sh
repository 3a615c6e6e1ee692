#!/usr/bin/env bash
# Two GPUs of one host (run on two H200s): build, the DTensor checks (torchrun), the DTensor
# 32768^3 bench. From the repository root; logs to $OUT. NVLink multicast stays off.
set -o pipefail
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
export PYTHONUNBUFFERED=1 NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv > "$OUT/gpu.txt"
nvidia-smi topo -m >> "$OUT/gpu.txt" 2>&1
start=$SECONDS
timeout 170 python3 -m pip install -q --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real . > "$OUT/build.txt" 2>&1 ||
  { tail -40 "$OUT/build.txt"; exit 1; }
echo "build: $((SECONDS - start)) s" | tee -a "$OUT/build.txt"
timeout 120 torchrun --nproc-per-node 2 tests/torch_dist_check.py 2>&1 | tee "$OUT/dist_check.txt" | tail -12
echo "checks done: $((SECONDS - start)) s"
timeout 120 torchrun --nproc-per-node 2 -m bench.torch_bench dtensor --out "$OUT/dtensor" 2>&1 |
  tee "$OUT/dtensor.txt" | tail -14
echo "all done: $((SECONDS - start)) s"
