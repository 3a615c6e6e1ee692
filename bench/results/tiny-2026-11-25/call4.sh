#!/usr/bin/env bash
# Device call 4 (README.md here): the FP32 form with chains of 4 from k = 8, offered up to k = 32,
# its row fitted on call 3's k <= 16 data: the GPU tests it touches; a calibration sample with k <= 32
# (seed 25, tf32tf32) with the form and fused_mma's 32-wide tile pinned, for the row's refit.
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/t4; rm -rf $W; mkdir -p $W
trap 'gzip -f $W/calibration/results.json; tar czf $OUT/call4.tgz -C $W .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"
timeout 170 python3 -m pytest -q -p no:cacheprovider -rfEs -n 12 tests/test_fused_mma_fp32_gpu.py \
  tests/test_planner_gpu.py tests/test_simt_strips_gpu.py tests/test_auto_fused_gpu.py \
  tests/test_auto_scaled_gpu.py tests/test_fused_mma_gpu.py > $W/tests.txt 2>&1
echo "tests exit $?"; tail -1 $W/tests.txt; grep -E "^FAILED|^ERROR" $W/tests.txt | head -12
timeout 200 python3 -m bench.random --seed 25 --count 400 --batched-count 300 --modes tf32tf32 --max-k 32 \
  --families fused_mma/fp32,fused_mma:32,simt --out $W/calibration --max-minutes 3 --no-plots > $W/calibration.log 2>&1
echo "calibration exit $?"; tail -2 $W/calibration.log
