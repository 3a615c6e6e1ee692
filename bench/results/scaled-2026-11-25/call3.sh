#!/usr/bin/env bash
# Device call 3 (README.md here): the held-out random sample (seed 26), tf32tf32 / halfhalf / AUTO
# on the planner's routes, and each also with fused_mma pinned, AUTO there in its scaled form
# (ECGEMM_FAMILY=fused_mma/halfhalf): what the scaled form would gain where the planner puts AUTO
# on fused_mma.
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/c3; rm -rf $W; mkdir -p $W
trap 'gzip -f $W/random/results.json; tar czf $OUT/call3.tgz -C $W .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"
timeout 500 python3 -m bench.random --seed 26 --modes tf32tf32,halfhalf,auto --families fused_mma/halfhalf \
  --max-minutes 7.5 --no-plots --out $W/random > $W/random.md 2> $W/random.log
echo "random exit $?"; tail -3 $W/random.log
