#!/usr/bin/env bash
# One GPU (run on an H200): build, the PyTorch tests (CPU and GPU), the MLP training-step
# bench. From the repository root; logs to $OUT. The figures in this folder came from it.
set -o pipefail
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv > "$OUT/gpu.txt"
start=$SECONDS
timeout 170 python3 -m pip install -q --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real . > "$OUT/build.txt" 2>&1 ||
  { tail -40 "$OUT/build.txt"; exit 1; }
echo "build: $((SECONDS - start)) s" | tee -a "$OUT/build.txt"
timeout 120 python3 -m pytest -q -p no:cacheprovider -rfEs tests/test_torch_gpu.py tests/test_torch.py \
  2>&1 | tee "$OUT/pytest.txt" | tail -30
echo "tests done: $((SECONDS - start)) s"
timeout 100 python3 -m bench.torch_bench mlp --out "$OUT/mlp" 2>&1 | tee "$OUT/mlp.txt" | tail -15
echo "all done: $((SECONDS - start)) s"
