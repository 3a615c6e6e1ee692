#!/usr/bin/env bash
# Device call 8 (README.md here): the lines kernel built for 5 blocks an SM where one thin column streams a grid of
# 8 or more waves (call 7), 4 elsewhere: the GEMV, planner, batched and streams GPU tests; ab_batched.py over
# shapes_batched.txt (the planner's route, gemv:lines); the held-out sample (seed 26).
set -o pipefail
export PYTHONUNBUFFERED=1
R=$PWD; D=$R/bench/results/batched-lines-2026-11-26
W=/tmp/l8; rm -rf $W; mkdir -p $W
trap 'gzip -f $W/random/results.json; tar czf $OUT/call8.tgz -C $W .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"
timeout 150 python3 -m pytest -q -p no:cacheprovider -rfEs -n 12 tests/test_gemv_gpu.py tests/test_planner.py \
  tests/test_planner_gpu.py tests/test_c_batched_gpu.py tests/test_streams_gpu.py > $W/tests.txt 2>&1
echo "tests exit $?"; tail -n 1 $W/tests.txt; grep -E "^FAILED|^ERROR" $W/tests.txt | head -12
(cd /tmp && timeout 100 python3 $D/ab_batched.py $D/shapes_batched.txt $W/ab_batched.json - gemv:lines > $W/ab_batched.txt 2> $W/ab_batched.err)
echo "ab_batched exit $?"; tail -n 2 $W/ab_batched.err
timeout 100 python3 -m bench.random --seed 26 --max-minutes 1.4 --out $W/random > $W/random.md 2> $W/random.log
echo "random exit $?"; grep -E "^\| (tf32tf32|halfhalf|auto) \| [0-9]" $W/random/table.md | head -6
