#!/usr/bin/env bash
# Device call B (README.md), on the machine call 1 left warm: calibrate simt/piped (seed 41, the six piped tiles,
# simt's old tiles and fused_mma's 32-wide tile pinned, tf32tf32), fit that row on the device, scored out of sample,
# rebuild with it and run the planner's tests and the sweep of seed 26 in the time left. The written row comes back
# as $OUT/cost_coefficients.inc for the tree.
set -o pipefail
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
T0=$(date +%s); BUDGET=${BUDGET:-585}
build() { python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real \
  -C build-dir=/tmp/b1 . > $OUT/build$1.txt 2>&1; echo "build$1 exit $? $(( $(date +%s) - T0 )) s"; }
build 0
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv,noheader
FAM=simt:piped32x32,simt:piped32x64,simt:piped64x32,simt:piped64x64,simt:piped64x128,simt:piped128x64,simt,fused_mma:32
timeout 250 python3 -m bench.random --seed 41 --count 1000 --batched-count 300 --modes tf32tf32 \
  --families $FAM --out $OUT/cal41 --max-minutes 3.6 --no-plots > $OUT/cal41.log 2>&1
echo "calibration exit $? $(( $(date +%s) - T0 )) s"
python3 -m tools.fit_cost_model $OUT/cal41/results.json --rows simt/piped --write --holdout 7 --report $OUT/fit.md \
  > $OUT/fit.txt 2>&1; echo "fit exit $? $(( $(date +%s) - T0 )) s"; tail -n 25 $OUT/fit.txt
cp libecgemm/cost_coefficients.inc $OUT/; git diff --stat
build 1
timeout 60 python3 -m pytest -q -p no:cacheprovider -rfE -n 12 tests/test_planner.py tests/test_planner_gpu.py \
  > $OUT/tests-planner.txt 2>&1; echo "planner tests exit $? $(( $(date +%s) - T0 )) s"; tail -n 1 $OUT/tests-planner.txt
LEFT=$(( BUDGET - ($(date +%s) - T0) )); MM=$(python3 -c "print(max(0.5, ($LEFT - 40) / 60))")
echo "sweep gets $MM min"
timeout $(( LEFT - 10 )) python3 -m bench.random --seed 26 --max-minutes $MM --out $OUT/random-26 --no-plots \
  > $OUT/random-26.log 2>&1
echo "random exit $? $(( $(date +%s) - T0 )) s"; grep -E "^\| (tf32tf32|halfhalf|auto) \| [0-9]+ \| " $OUT/random-26/table.md | cut -c1-80
gzip -f $OUT/cal41/results.json $OUT/cal41.log $OUT/random-26/results.json $OUT/random-26.log
