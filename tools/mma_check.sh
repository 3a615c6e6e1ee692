#!/usr/bin/env bash
# On the GPU machine: the fused mma.sync family (kernels/sm80_fused_gemm.cu). Install
# (sm_90a), its suite and the batched suite, then tools/probe.py on batches and small
# shapes with the default rule, pinned to it (ECGEMM_TC_KERNEL=mma) and pinned to SIMT,
# each against cuBLAS in the same process; compute-sanitizer on a few of its tests.
# $OUT: pytest.txt, probe.txt, sanitizer.txt. Usage: bash tools/mma_check.sh [pytest -k expr];
# PYTEST=0, SANITIZE=0 skip those; ROUTES, BATCHES, SHAPES override the probe's lists.
set -o pipefail
. "$(dirname "$0")/device_install.sh"
[ "${PYTEST:-1}" = 1 ] && timeout 200 python3 -m pytest -q -p no:cacheprovider -rfEs -x tests/test_sm80_fused_gpu.py \
  tests/test_c_batched_gpu.py ${1:+-k "$1"} 2>&1 | tee "$OUT/pytest.txt" | tail -6
BATCHES=${BATCHES:-"4096,64,64,64;512,256,256,256;256,512,512,512;16384,32,32,32;1024,128,128,128"}
SHAPES=${SHAPES:-"128,16384,128;64,1048576,64;256,256,256;512,512,512;64,1024,16384;128,4096,128"}
for route in ${ROUTES:-rule mma simt}; do
  case $route in
    rule) pins=() ;;
    mma) pins=(ECGEMM_TC_KERNEL=mma ECGEMM_CORRECTED_ROUTE=tc) ;;
    simt) pins=(ECGEMM_CORRECTED_ROUTE=simt) ;;
  esac
  echo "== route: $route"
  env "${pins[@]}" timeout 100 python3 tools/probe.py --modes tf32tf32,halfhalf \
    --batched "$BATCHES" --shapes "$SHAPES"
done 2>&1 | tee "$OUT/probe.txt"
[ "${SANITIZE:-1}" = 1 ] && for tool in memcheck racecheck; do
  timeout 150 compute-sanitizer --tool $tool --error-exitcode 9 python3 -m pytest -q -p no:cacheprovider \
    tests/test_sm80_fused_gpu.py -k "halfhalf and (130-257-300 or 257-129) and N-T or tf32tf32 and test_batches and 7-33" \
    2>&1 | tail -4
  echo "$tool exit ${PIPESTATUS[0]}"
done 2>&1 | tee "$OUT/sanitizer.txt"
exit 0
