#!/usr/bin/env bash
# Device call 5 (README.md here): the strip tile up to k = 256 (two-level past 32), priced
# against every other simt tile of a batch. Build; the simt, batched, planner and N-D GPU
# tests; the held-out sample (seed 26); a calibration sample (800 batches of seed 25, simt,
# gemv, fused_mma and fused_wgmma pinned) for the strip tile's row.
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/s5; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call5.tgz -C $W .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"
timeout 200 python3 -m pytest -q -p no:cacheprovider -rfEs -n 8 tests/test_simt_strips_gpu.py \
  tests/test_simt_stream_gpu.py tests/test_simt_dot_gpu.py tests/test_c_batched_gpu.py \
  tests/test_planner_gpu.py tests/test_matmul_nd_gpu.py > $W/tests.txt 2>&1
echo "tests exit $?"; grep -E "passed|failed|FAILED|Error" $W/tests.txt | tail -12
timeout 120 python3 -m bench.random --seed 26 --out $W/random-seed26 --max-minutes 1.8 --no-plots > $W/random.log 2>&1
echo "random exit $?"; grep "^| tf32tf32 | 1018\|^| halfhalf | 1018\|^| auto | 1018\|^| tf32tf32 | 200\|^| halfhalf | 200\|^| auto | 200" $W/random-seed26/table.md
timeout 300 python3 -m bench.random --seed 25 --count 1 --batched-count 800 --modes tf32tf32 \
  --families simt,gemv,fused_mma,fused_wgmma --out $W/calibration --max-minutes 4.5 --no-plots > $W/calibration.log 2>&1
echo "calibration exit $?"; grep "^| tf32tf32 | 800" $W/calibration/table.md
