#!/usr/bin/env bash
# Device call 1 (README.md here): fused_mma with three FP32 stages in flight on one-wave grids.
# Build; the family's tests, the planner's and the stream/graph tests; compute-sanitizer over a
# few fused_mma calls; fused_mma pinned on the calibration sample (seed 25, against
# refit-2026-11-23/calibration); the held-out sample (seed 26, against refit-2026-11-23/call5).
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/s1; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call1.tgz -C $W .' EXIT
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit,memory.total --format=csv > $W/gpu.txt
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"
timeout 150 python3 -m pytest -q -p no:cacheprovider -rfEs -n 8 tests/test_fused_mma_gpu.py \
  tests/test_planner_gpu.py tests/test_planner.py tests/test_streams_gpu.py -k "not short_of_memory" > $W/tests.txt 2>&1
echo "tests exit $?"; tail -2 $W/tests.txt
D=bench/results/stages-2026-11-23
for tool in memcheck racecheck; do
  timeout 60 compute-sanitizer --tool $tool --kernel-name regex:fused_mma python3 $D/sanitize_fused_mma.py \
    > $W/sanitizer-$tool.txt 2>&1; echo "$tool exit $?"; tail -1 $W/sanitizer-$tool.txt
done
timeout 120 python3 -m bench.random --seed 25 --modes tf32tf32,halfhalf --families fused_mma \
  --out $W/pinned-seed25 --max-minutes 1.8 --no-plots > $W/pinned.log 2>&1; echo "pinned exit $?"
timeout 150 python3 -m bench.random --seed 26 --out $W/random-seed26 --max-minutes 2 > $W/random.log 2>&1
echo "random exit $?"; grep "^| tf32tf32 | 1018\|^| halfhalf | 1018\|^| auto | 1018\|^| tf32tf32 | 200\|^| halfhalf | 200\|^| auto | 200" $W/random-seed26/table.md
