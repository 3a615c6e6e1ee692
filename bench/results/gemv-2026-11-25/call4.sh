#!/usr/bin/env bash
# Device call 4 (README.md here): call 2 with the along-the-long-side kernel back near main's registers (242 -> 58 for one
# column: call 3's ncu) and narrower row groups while its blocks are fewer than the SMs; old rows: the GPU tests;
# ab.py over shapes.txt (cuBLAS, gemv, gemv:wide = the kernels' old shape, fused_mma:32 = the route most of these took);
# (seed 25, thin products only: bench.random --max-width 4, gemv pinned).
set -o pipefail
export PYTHONUNBUFFERED=1
D=$PWD/bench/results/gemv-2026-11-25
W=/tmp/g4; rm -rf $W; mkdir -p $W
trap 'gzip -f $W/calibration/results.json; tar czf $OUT/call4.tgz -C $W .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"
timeout 150 python3 -m pytest -q -p no:cacheprovider -rfEs -n 12 tests/test_gemv_gpu.py tests/test_planner.py \
  tests/test_planner_gpu.py tests/test_streams_gpu.py > $W/tests.txt 2>&1
echo "tests exit $?"; tail -1 $W/tests.txt; grep -E "^FAILED|^ERROR" $W/tests.txt | head -12
(cd /tmp && timeout 150 python3 $D/ab.py $D/shapes.txt $W/ab.json gemv gemv:wide fused_mma:32 > $W/ab.txt 2> $W/ab.err)
echo "ab exit $?"; tail -3 $W/ab.err
timeout 200 python3 -m bench.random --seed 25 --count 4000 --batched-count 1000 --max-width 4 --modes tf32tf32 \
  --families gemv --out $W/calibration --max-minutes 3 --no-plots > $W/calibration.log 2>&1
echo "calibration exit $?"; tail -2 $W/calibration.log
