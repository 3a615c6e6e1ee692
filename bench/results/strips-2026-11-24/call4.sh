#!/usr/bin/env bash
# Device call 4 (README.md here): the planner prices both short-k tiles (strips, stream) for batches.
# Build; simt, batched and planner GPU tests; the held-out sample (seed 26, against call 1).
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/s4; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call4.tgz -C $W .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"
timeout 200 python3 -m pytest -q -p no:cacheprovider -rfEs -n 8 tests/test_simt_strips_gpu.py \
  tests/test_simt_stream_gpu.py tests/test_simt_dot_gpu.py tests/test_c_batched_gpu.py \
  tests/test_planner_gpu.py tests/test_matmul_nd_gpu.py > $W/tests.txt 2>&1
echo "tests exit $?"; grep -E "passed|failed|FAILED|Error" $W/tests.txt | tail -12
timeout 120 python3 -m bench.random --seed 26 --out $W/random-seed26 --max-minutes 1.8 --no-plots > $W/random.log 2>&1
echo "random exit $?"; grep "^| tf32tf32 | 1018\|^| halfhalf | 1018\|^| auto | 1018\|^| tf32tf32 | 200\|^| halfhalf | 200\|^| auto | 200" $W/random-seed26/table.md
