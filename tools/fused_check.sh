#!/usr/bin/env bash
# On the GPU machine: build (sm_90a only), the C-ABI GPU tests, then the probe on the
# issue's shapes with the fused family (default), the plane family and the SIMT route.
# Usage: bash tools/fused_check.sh [pytest selection]; logs go to $OUT.
set -o pipefail
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/gpu.txt"
python3 -m pip install -q --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real . > "$OUT/build.txt" 2>&1 ||
  { tail -50 "$OUT/build.txt"; exit 1; }
timeout "${PYTEST_LIMIT:-150}" python3 -m pytest -q -x -p no:cacheprovider -rfE \
  "${@:-tests/test_c_abi_gpu.py}" 2>&1 | tail -20 | tee "$OUT/pytest.txt"
SQUARES="8192,8192,8192;4096,4096,4096;2048,2048,2048;1024,1024,1024;512,512,512;256,256,256"
SKINNY="64,8192,8192;8192,8192,64;128,16384,128;1,4096,4096;4096,4096,1;8192,64,8192;16384,256,16384;64,1048576,64"
for route in fused planes; do
  ECGEMM_TC_KERNEL=$route timeout 90 python3 tools/probe.py --shapes "$SQUARES" --modes tf32tf32,halfhalf \
    2>&1 | tee "$OUT/probe_squares_$route.txt"
done
for route in tc simt; do
  ECGEMM_CORRECTED_ROUTE=$route timeout 90 python3 tools/probe.py --shapes "$SKINNY" --modes tf32tf32,halfhalf \
    2>&1 | tee "$OUT/probe_skinny_$route.txt"
done
