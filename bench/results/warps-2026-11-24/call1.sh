#!/usr/bin/env bash
# Device call 1 (README.md here): fused_mma with 8 warps a 64 x 64 tile (warp tile 32 x 16,
# two CTAs an SM) in place of 4 (32 x 32, four CTAs an SM). Build; the fused_mma, batched and
# planner GPU tests; fused_mma pinned on the calibration sample (seed 25, against
# stages-2026-11-23/call4/pinned-seed25); the held-out sample (seed 26, against
# stages-2026-11-23/call4/random-seed26).
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/w1; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call1.tgz -C $W .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"
timeout 150 python3 -m pytest -q -p no:cacheprovider -rfEs -n 8 tests/test_fused_mma_gpu.py \
  tests/test_c_batched_gpu.py tests/test_planner_gpu.py > $W/tests.txt 2>&1
echo "tests exit $?"; tail -3 $W/tests.txt
timeout 100 python3 -m bench.random --seed 25 --modes tf32tf32 --families fused_mma \
  --out $W/pinned-seed25 --max-minutes 1.5 --no-plots > $W/pinned.log 2>&1; echo "pinned exit $?"
timeout 120 python3 -m bench.random --seed 26 --out $W/random-seed26 --max-minutes 1.8 > $W/random.log 2>&1
echo "random exit $?"; grep "^| tf32tf32 | 1018\|^| halfhalf | 1018\|^| auto | 1018\|^| tf32tf32 | 200\|^| halfhalf | 200\|^| auto | 200" $W/random-seed26/table.md
