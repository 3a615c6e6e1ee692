#!/usr/bin/env bash
# Device call 4 (README.md here): the held-out random sample (seed 26), tf32tf32 / halfhalf / AUTO
# on the planner's routes, and each also with fused_mma pinned, AUTO there in its scaled form
# (ECGEMM_FAMILY=fused_mma/halfhalf): what the scaled form would gain where the planner puts AUTO
# on fused_mma. After call 3: the scaled form on the 32-wide tile only, a factor per output
# a stage and the corrections promoted once a stage (call 3's form promoted both each k-step).
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/c4; rm -rf $W; mkdir -p $W
trap 'gzip -f $W/random/results.json; tar czf $OUT/call4.tgz -C $W .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"
timeout 150 python3 -m pytest -q -p no:cacheprovider -rfEs -n 8 tests/test_auto_scaled_gpu.py \
  tests/test_auto_fused_gpu.py tests/test_planner_gpu.py > $W/tests.txt 2>&1
echo "tests exit $?"; tail -1 $W/tests.txt; grep -E "^FAILED|^ERROR" $W/tests.txt | head -20
timeout 500 python3 -m bench.random --seed 26 --modes tf32tf32,halfhalf,auto --families fused_mma/halfhalf \
  --max-minutes 7.5 --no-plots --out $W/random > $W/random.md 2> $W/random.log
echo "random exit $?"; tail -3 $W/random.log
