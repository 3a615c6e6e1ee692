#!/usr/bin/env bash
# Two GPUs of one host (run on two H200s): build, the DTensor checks (torchrun), the DTensor
# 32768^3 bench, then the one-GPU MLP training-step bench on GPU 0. From the repository root;
# logs to $OUT (at most 8 files). NVLink multicast stays off.
set -o pipefail
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
export PYTHONUNBUFFERED=1 NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv
  nvidia-smi topo -m; } > "$OUT/gpu.txt" 2>&1
start=$SECONDS
timeout 170 python3 -m pip install -q --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real . > "$OUT/build.txt" 2>&1 ||
  { tail -40 "$OUT/build.txt"; exit 1; }
echo "build: $((SECONDS - start)) s" | tee -a "$OUT/gpu.txt"
timeout 120 torchrun --nproc-per-node 2 tests/torch_dist_check.py 2>&1 | tee "$OUT/dist_check.txt" | tail -8
echo "checks done: $((SECONDS - start)) s" | tee -a "$OUT/gpu.txt"
timeout 120 torchrun --nproc-per-node 2 -m bench.torch_bench dtensor --out "$OUT/dtensor" 2>&1 |
  tee "$OUT/bench.txt" | tail -12
echo "dtensor bench done: $((SECONDS - start)) s" | tee -a "$OUT/gpu.txt"
export CUDA_VISIBLE_DEVICES=0
timeout 30 python3 -m bench.torch_bench mlp --width 512 --batch 512 --steps 2 --budget 0.2 \
  --out /tmp/smoke > /tmp/smoke.txt 2>&1 || { echo "MLP smoke run failed:"; tail -20 /tmp/smoke.txt; }
timeout 110 python3 -m bench.torch_bench mlp --out "$OUT/mlp" 2>&1 | tee -a "$OUT/bench.txt" | tail -12
echo "all done: $((SECONDS - start)) s" | tee -a "$OUT/gpu.txt"
