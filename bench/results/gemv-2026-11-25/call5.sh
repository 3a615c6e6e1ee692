#!/usr/bin/env bash
# Device call 5 (README.md here): the tree with gemv's rows refitted on call 4's calibration (call4/fit_report.md):
# the GPU tests it touches; the held-out random sample (seed 26, as tiny-2026-11-25 call 6: README's table);
# ab.py over big.txt (large GEMV shapes) with the planner's route, gemv and simt pinned.
set -o pipefail
export PYTHONUNBUFFERED=1
D=$PWD/bench/results/gemv-2026-11-25
W=/tmp/g5; rm -rf $W; mkdir -p $W
trap 'gzip -f $W/random/results.json; tar czf $OUT/call5.tgz -C $W .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"
timeout 150 python3 -m pytest -q -p no:cacheprovider -rfEs -n 12 tests/test_gemv_gpu.py tests/test_planner.py \
  tests/test_planner_gpu.py tests/test_streams_gpu.py tests/test_simt_stream_gpu.py tests/test_c_batched_gpu.py > $W/tests.txt 2>&1
echo "tests exit $?"; tail -1 $W/tests.txt; grep -E "^FAILED|^ERROR" $W/tests.txt | head -12
(cd /tmp && timeout 100 python3 $D/ab.py $D/big.txt $W/big.json - gemv simt > $W/big.txt 2> $W/big.err)
echo "big exit $?"; cut -c1-200 $W/big.txt
timeout 220 python3 -m bench.random --seed 26 --max-minutes 3 --out $W/random > $W/random.md 2> $W/random.log
echo "random exit $?"; grep -E "^\| (tf32tf32|halfhalf|auto) \| [0-9]" $W/random/table.md | head -6
