#!/usr/bin/env bash
# On the GPU machine: install (sm_90a only), AUTO's GPU tests beside the C-ABI, GEMV and
# Python suites, AUTO's GPU properties with the long hypothesis profile, then bench.auto
# (speed and the statistics pass at 4096^3 and 8192^3) and bench's accuracy section (the
# exponent-type plot with every mode). $OUT gets pytest.txt, properties.txt, auto/ and
# accuracy/. Usage: bash tools/auto_check.sh [extra pytest args]
set -o pipefail
. "$(dirname "$0")/device_install.sh"
timeout 200 python3 -m pytest -q -p no:cacheprovider -rfEs tests/test_auto_gpu.py \
  tests/test_c_abi_gpu.py tests/test_gemv_gpu.py tests/test_python_gpu.py "$@" 2>&1 |
  tee "$OUT/pytest.txt" | tail -15
ECGEMM_HYPOTHESIS_PROFILE=gpu-long timeout 150 python3 -m pytest -q -p no:cacheprovider -rfEs \
  tests/test_gpu_properties.py -k "auto" 2>&1 | tee "$OUT/properties.txt" | tail -6
timeout 150 python3 -m bench.auto --sizes 4096,8192 --out "$OUT/auto" 2> "$OUT/auto_log.txt" | tail -20
timeout 120 python3 -m bench --profile shapes --sections accuracy --no-xla --no-plots \
  --methods ecgemm --out "$OUT/accuracy" 2> /tmp/acc_log.txt | grep -A14 "xponent" | head -40
