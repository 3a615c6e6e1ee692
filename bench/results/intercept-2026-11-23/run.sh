#!/usr/bin/env bash
# One H200 (issue 13): build, the interception tests (CPU and GPU), bench.intercept, and a probe of
# which cuBLAS entry points PyTorch reaches as it is (without DISABLE_ADDMM_CUDA_LT). From the
# repository root; logs and results to $OUT. The files beside this script came from it.
set -o pipefail
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
export PYTHONUNBUFFERED=1
start=$SECONDS
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv > "$OUT/build.txt"
timeout 150 python3 -m pip install -q --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real . >> "$OUT/build.txt" 2>&1 ||
  { tail -40 "$OUT/build.txt"; exit 1; }
echo "build: $((SECONDS - start)) s; preload: $(python3 -m ecgemm --preload)" | tee -a "$OUT/build.txt"
timeout 150 python3 -m pytest -q -p no:cacheprovider -rfEs -s tests/test_intercept.py \
  tests/test_intercept_gpu.py > "$OUT/pytest.txt" 2>&1
tail -25 "$OUT/pytest.txt"
echo "tests: $((SECONDS - start)) s"
timeout 180 python3 -m bench.intercept --out "$OUT/bench" 2>&1 | tail -40
echo "bench: $((SECONDS - start)) s"
LD_PRELOAD=$(python3 -m ecgemm --preload) ECGEMM_CUBLAS_VERBOSE=1 ECGEMM_CUBLAS_MIN_FLOPS=0 \
  timeout 60 python3 tests/intercept_torch_check.py > "$OUT/probe_without_addmm_setting.txt" 2>&1
grep -c "route=ecgemm" "$OUT/probe_without_addmm_setting.txt"; tail -2 "$OUT/probe_without_addmm_setting.txt"
echo "all: $((SECONDS - start)) s"
