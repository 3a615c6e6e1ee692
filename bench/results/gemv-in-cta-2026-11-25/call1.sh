#!/usr/bin/env bash
# Device call 1 (README.md here): gemv with k split inside the CTA only where the fixed groups leave the GPU idle,
# main's kernels kept for the fixed groups (compile-time), main's rows (along the long side: chain per row group).
# The GPU tests it touches; ab.py (gemv-2026-11-25) over shapes.txt: the planner's route, gemv, gemv:wide (the fixed
# groups = main's plan), fused_mma:32; the held-out sample (seed 26, as tiny-2026-11-25 call 6); a thin-product
# calibration (seed 25, --max-width 4, gemv pinned).
set -o pipefail
export PYTHONUNBUFFERED=1
D=$PWD/bench/results/gemv-in-cta-2026-11-25
AB=$PWD/bench/results/gemv-2026-11-25/ab.py
W=/tmp/c1; rm -rf $W; mkdir -p $W
trap 'gzip -f $W/random/results.json $W/calibration/results.json; tar czf $OUT/call1.tgz -C $W .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"
timeout 150 python3 -m pytest -q -p no:cacheprovider -rfEs -n 12 tests/test_gemv_gpu.py tests/test_planner.py \
  tests/test_planner_gpu.py tests/test_streams_gpu.py tests/test_simt_stream_gpu.py tests/test_c_batched_gpu.py > $W/tests.txt 2>&1
echo "tests exit $?"; tail -n 1 $W/tests.txt; grep -E "^FAILED|^ERROR" $W/tests.txt | head -12
(cd /tmp && timeout 120 python3 $AB $D/shapes.txt $W/ab.json - gemv gemv:wide fused_mma:32 > $W/ab.txt 2> $W/ab.err)
echo "ab exit $?"; tail -n 3 $W/ab.err
timeout 150 python3 -m bench.random --seed 26 --max-minutes 2 --out $W/random > $W/random.md 2> $W/random.log
echo "random exit $?"; grep -E "^\| (tf32tf32|halfhalf|auto) \| [0-9]" $W/random/table.md | head -6
timeout 150 python3 -m bench.random --seed 25 --count 4000 --batched-count 1000 --max-width 4 \
  --modes tf32tf32 --families gemv --out $W/calibration --max-minutes 2 --no-plots > $W/calibration.log 2>&1
echo "calibration exit $?"; tail -n 2 $W/calibration.log
