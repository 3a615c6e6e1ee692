#!/usr/bin/env bash
# On the GPU machine: install (sm_90a only), the GEMV route's tests and the C-ABI suite,
# then GEMV-like shapes through the new route and through the tiled SIMT kernel
# (ECGEMM_CORRECTED_ROUTE=simt), both against cuBLAS SGEMM. Logs go to $OUT.
set -o pipefail
. "$(dirname "$0")/device_install.sh"
timeout "${PYTEST_LIMIT:-240}" python3 -m pytest -q -p no:cacheprovider -rfEs -x \
  tests/test_gemv_gpu.py "$@" 2>&1 | tee "$OUT/pytest.txt" | tail -15
shapes="1,4096,4096;4096,4096,1;2,4096,4096;4096,4096,4;1,16384,16384;16384,16384,1;4,8192,8192;1,65536,1024;1,1048576,64;3,300,5000"
{
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv
  timeout 120 python3 tools/probe.py --shapes "$shapes" --modes tf32tf32,halfhalf,fp32
  if [ -n "$GEMV_VS_SIMT" ]; then
    echo "--- tiled SIMT kernel (ECGEMM_CORRECTED_ROUTE=simt)"
    ECGEMM_CORRECTED_ROUTE=simt timeout 120 python3 tools/probe.py --shapes "$shapes" --modes tf32tf32
  fi
} 2>&1 | tee "$OUT/probe.txt"
