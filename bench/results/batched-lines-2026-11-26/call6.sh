#!/usr/bin/env bash
# Device call 6 (README.md here): call 4's tree with a batch's row groups along the long side narrowed where a product's
# length leaves fewer outputs idle (len 192: three blocks of 64, not two of 128), the fixed groups priced beside them.
# The GEMV, planner and batched GPU tests; memcheck over GEMV's batches; ab_batched.py over shapes_len.txt (the planner's
# route, gemv:wide); the held-out sample (seed 26).
set -o pipefail
export PYTHONUNBUFFERED=1
R=$PWD; D=$R/bench/results/batched-lines-2026-11-26
W=/tmp/l6; rm -rf $W; mkdir -p $W
trap 'gzip -f $W/random/results.json; tar czf $OUT/call6.tgz -C $W .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"
timeout 150 python3 -m pytest -q -p no:cacheprovider -rfEs -n 12 tests/test_gemv_gpu.py tests/test_planner.py \
  tests/test_planner_gpu.py tests/test_c_batched_gpu.py tests/test_streams_gpu.py > $W/tests.txt 2>&1
echo "tests exit $?"; tail -n 1 $W/tests.txt; grep -E "^FAILED|^ERROR" $W/tests.txt | head -12
timeout 90 compute-sanitizer --tool memcheck --error-exitcode 9 python3 -m pytest -q -p no:cacheprovider \
  tests/test_gemv_gpu.py -k "test_batches and tf32tf32" > $W/memcheck.txt 2>&1
echo "memcheck exit $?"; grep -E "ERROR SUMMARY|passed|failed" $W/memcheck.txt | tail -n 2
(cd /tmp && timeout 90 python3 $D/ab_batched.py $D/shapes_len.txt $W/ab_len.json - gemv:wide > $W/ab_len.txt 2> $W/ab_len.err)
echo "ab_len exit $?"; tail -n 2 $W/ab_len.err
timeout 100 python3 -m bench.random --seed 26 --max-minutes 1.4 --out $W/random > $W/random.md 2> $W/random.log
echo "random exit $?"; grep -E "^\| (tf32tf32|halfhalf|auto) \| [0-9]" $W/random/table.md | head -6
