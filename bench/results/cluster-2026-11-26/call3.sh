#!/usr/bin/env bash
# Device call 3 (README.md here): fused_mma's split priced by the cost model (the cluster feature, the unsplit plan
# beside the split one; coefficients as main's, the cluster's 0). Build; fused_mma and planner GPU tests; a
# calibration sample (seed 25, as latency-2026-11-25 call 2) with each tile pinned, split as planned and unsplit,
# in tf32tf32 and halfhalf, for tools/fit_cost_model.py --rows fused_mma/...,fused_mma32/...
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/c3; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call3.tgz -C $W .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"
timeout 120 python3 -m pytest -q -p no:cacheprovider -rfEs -n 8 tests/test_fused_mma_gpu.py \
  tests/test_planner_gpu.py tests/test_planner.py > $W/tests.txt 2>&1
echo "tests exit $?"; tail -n 1 $W/tests.txt; grep -E "^FAILED|^ERROR" $W/tests.txt | head -8
timeout 330 python3 -m bench.random --seed 25 --count 400 --batched-count 300 --modes tf32tf32,halfhalf \
  --families fused_mma:64,fused_mma:32,fused_mma:64/unsplit,fused_mma:32/unsplit --out $W/calibration \
  --max-minutes 5.0 --no-plots > $W/calibration.log 2>&1
echo "calibration exit $?"; tail -3 $W/calibration.log
