#!/usr/bin/env bash
# Device call 2 (README.md here): fused_mma's 32 x 32 tile. Build; the fused_mma GPU tests (both
# tiles pinned, bits of the two tiles compared) and the planner's; a calibration sample (seed 25)
# with each tile pinned in tf32tf32 and halfhalf, for tools/fit_cost_model.py --rows fused_mma32/...
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/l2; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call2.tgz -C $W .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"
timeout 200 python3 -m pytest -q -p no:cacheprovider -rfEs -n 8 tests/test_fused_mma_gpu.py \
  tests/test_planner_gpu.py > $W/tests.txt 2>&1
echo "tests exit $?"; grep -E "passed|failed|FAILED|Error" $W/tests.txt | tail -12
timeout 260 python3 -m bench.random --seed 25 --count 400 --batched-count 300 --modes tf32tf32,halfhalf \
  --families fused_mma:64,fused_mma:32 --out $W/calibration --max-minutes 3.8 --no-plots > $W/calibration.log 2>&1
echo "calibration exit $?"; tail -3 $W/calibration.log
