#!/usr/bin/env bash
# Device call 1 (README.md here): GEMV's lines kernel (along k, 16 < k <= 256: lanes share a warp's lines, numbered
# across a batch's products) with a provisional cost row (gemv/along_k's). The GEMV, planner, batched and streams GPU
# tests; memcheck over the lines tests; ab_batched.py over shapes_batched.txt and ab.py over shapes_2d.txt with the
# planner's route, gemv (the lines kernel), gemv:wide (the kernel before) and simt pinned; a calibration (seed 25,
# thin side <= 4, k <= 256, gemv pinned) to fit gemv/lines.
set -o pipefail
export PYTHONUNBUFFERED=1
R=$PWD; D=$R/bench/results/batched-lines-2026-11-26
AB=$R/bench/results/gemv-2026-11-25/ab.py
W=/tmp/l1; rm -rf $W; mkdir -p $W
trap 'gzip -f $W/calibration/results.json; tar czf $OUT/call1.tgz -C $W .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"
timeout 200 python3 -m pytest -q -p no:cacheprovider -rfEs -n 12 tests/test_gemv_gpu.py tests/test_planner.py \
  tests/test_planner_gpu.py tests/test_c_batched_gpu.py tests/test_streams_gpu.py > $W/tests.txt 2>&1
echo "tests exit $?"; tail -n 1 $W/tests.txt; grep -E "^FAILED|^ERROR" $W/tests.txt | head -12
timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 python3 -m pytest -q -p no:cacheprovider \
  tests/test_gemv_gpu.py -k "short_lines_batches or (test_short_lines and 71 and tf32tf32)" > $W/memcheck.txt 2>&1
echo "memcheck exit $?"; grep -E "ERROR SUMMARY|passed|failed" $W/memcheck.txt | tail -n 2
(cd /tmp && timeout 150 python3 $D/ab_batched.py $D/shapes_batched.txt $W/ab_batched.json - gemv gemv:wide simt > $W/ab_batched.txt 2> $W/ab_batched.err)
echo "ab_batched exit $?"; tail -n 2 $W/ab_batched.err
(cd /tmp && timeout 100 python3 $AB $D/shapes_2d.txt $W/ab_2d.json - gemv gemv:wide > $W/ab_2d.txt 2> $W/ab_2d.err)
echo "ab_2d exit $?"; tail -n 2 $W/ab_2d.err
timeout 150 python3 -m bench.random --seed 25 --count 4000 --batched-count 1000 --max-width 4 --max-k 256 \
  --modes tf32tf32 --families gemv --out $W/calibration --max-minutes 2 --no-plots > $W/calibration.log 2>&1
echo "calibration exit $?"; tail -n 2 $W/calibration.log
