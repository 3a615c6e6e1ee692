#!/usr/bin/env bash
# Device call 3 (README.md here): fused_mma's FP32 form (FusedMmaPlan::fp32) with the row it
# borrows (fused_mma32/tf32tf32's): the GPU tests it touches, the probe again (with the form
# pinned), and a calibration sample (seed 25, tf32tf32) with the form pinned for its own row.
set -o pipefail
export PYTHONUNBUFFERED=1
R=$PWD; D=$R/bench/results/tiny-2026-11-25
W=/tmp/t3; rm -rf $W; mkdir -p $W
trap 'gzip -f $W/calibration/results.json; tar czf $OUT/call3.tgz -C $W .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"
timeout 170 python3 -m pytest -q -p no:cacheprovider -rfEs -n 12 tests/test_fused_mma_fp32_gpu.py \
  tests/test_planner_gpu.py tests/test_simt_strips_gpu.py tests/test_auto_fused_gpu.py \
  tests/test_auto_scaled_gpu.py tests/test_fused_mma_gpu.py > $W/tests.txt 2>&1
echo "tests exit $?"; tail -1 $W/tests.txt; grep -E "^FAILED|^ERROR" $W/tests.txt | head -12
(cd /tmp && timeout 90 python3 $D/probe.py $D/shapes.txt $W/probe.json simt fused_mma/fp32 > $W/probe.txt 2> $W/probe.err)
echo "probe exit $?"
timeout 200 python3 -m bench.random --seed 25 --count 400 --batched-count 300 --modes tf32tf32 \
  --families fused_mma/fp32 --out $W/calibration --max-minutes 3 --no-plots > $W/calibration.log 2>&1
echo "calibration exit $?"; tail -2 $W/calibration.log
