#!/usr/bin/env bash
# Device call 1 (README.md here): fused_wgmma's narrow tiles, pinned (the planner does not offer them yet): the
# fused_wgmma and planner tests; narrow_ab.py (narrow against the planner's route, the wide tiles and cuBLAS); a
# calibration sweep of the narrow pin on seed 27's products with a side <= 64 (the sample the cost model was fitted
# on); memcheck over a few narrow tests.
set -o pipefail
export PYTHONUNBUFFERED=1
D=$PWD/bench/results/narrow-tiles-2026-11-26
W=/tmp/w1; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call1.tgz -C $W --exclude="*.png" .' EXIT
T0=$(date +%s)
python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real \
  -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $? $(( $(date +%s) - T0 )) s"
timeout 200 python3 -m pytest -q -p no:cacheprovider -rfEs -n 8 tests/test_fused_wgmma_narrow_gpu.py \
  tests/test_fused_wgmma_gpu.py tests/test_planner.py > $W/tests.txt 2>&1
echo "tests exit $? $(( $(date +%s) - T0 )) s"; tail -n 1 $W/tests.txt; grep -E "^FAILED|^ERROR" $W/tests.txt | head -12
(cd /tmp && timeout 150 python3 $D/narrow_ab.py $W/narrow_ab.jsonl > $W/narrow_ab.txt 2>&1)
echo "narrow_ab exit $? $(( $(date +%s) - T0 )) s"; cut -c1-250 $W/narrow_ab.txt
timeout 120 python3 -m bench.random --seed 27 --count 1000 --batched-count 300 --max-width 64 --modes tf32tf32,halfhalf \
  --families fused_wgmma:narrow,fused_wgmma --out $W/calibration --max-minutes 1.6 --no-plots > $W/calibration.log 2>&1
echo "calibration exit $? $(( $(date +%s) - T0 )) s"; tail -3 $W/calibration.log
gzip -f $W/calibration/results.json $W/calibration.log
LEFT=$(( 560 - ($(date +%s) - T0) ))
echo "memcheck limit $LEFT s"
timeout $LEFT compute-sanitizer --tool memcheck --error-exitcode 3 --print-limit 20 python3 -m pytest -q -p no:cacheprovider \
  tests/test_fused_wgmma_narrow_gpu.py -k "copied and (N-N or T-T)" > $W/memcheck.txt 2>&1
echo "memcheck exit $? $(( $(date +%s) - T0 )) s"; tail -n 3 $W/memcheck.txt
