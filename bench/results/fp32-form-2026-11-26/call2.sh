#!/usr/bin/env bash
# Device call 2 (README.md here): call 1's form, and the corrected modes' FP32 routes up to k = 32 (kFp32RouteMaxK
# 16 -> 32; the form priced by its old row). The GPU tests it touches; the held-out sample (seed 26); a calibration at
# k <= 32 (seed 25) with simt, the form and gemv pinned, for the form's row.
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/f2; rm -rf $W; mkdir -p $W
trap 'gzip -f $W/random/results.json $W/calibration/results.json; tar czf $OUT/call2.tgz -C $W .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"
timeout 150 python3 -m pytest -q -p no:cacheprovider -rfEs -n 12 tests/test_fused_mma_fp32_gpu.py tests/test_planner.py \
  tests/test_planner_gpu.py tests/test_simt_stream_gpu.py tests/test_c_batched_gpu.py tests/test_gemv_gpu.py > $W/tests.txt 2>&1
echo "tests exit $?"; tail -n 1 $W/tests.txt; grep -E "^FAILED|^ERROR" $W/tests.txt | head -12
timeout 120 python3 -m bench.random --seed 26 --max-minutes 1.5 --out $W/random > $W/random.md 2> $W/random.log
echo "random exit $?"; grep -E "^\| (tf32tf32|halfhalf|auto) \| [0-9]" $W/random/table.md | head -6
timeout 200 python3 -m bench.random --seed 25 --count 4000 --batched-count 1000 --budget 400 --max-k 32 --modes tf32tf32 \
  --families simt,fused_mma/fp32,gemv --out $W/calibration --max-minutes 2.5 --no-plots > $W/calibration.log 2>&1
echo "calibration exit $?"; tail -n 2 $W/calibration.log
