#!/usr/bin/env bash
# Device call 4: the cost model with a chain feature and the two GEMV kernels on rows of their
# own (refitted to call 1's calibration, no new measurement in the fit); the planner's, stream and
# C ABI tests; the held-out sweep (seed 26) again.
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/w4; mkdir -p $W
trap 'tar czf $OUT/call4.tgz -C $W .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"; tail -1 $W/build.txt
timeout 150 python3 -m pytest -q -p no:cacheprovider -rfEs -n 6 tests/test_planner_gpu.py tests/test_planner.py \
  tests/test_streams_gpu.py tests/test_c_abi_gpu.py tests/test_python_api.py tests/test_c_batched_gpu.py \
  2>&1 | tee $W/tests.txt | tail -3
timeout 200 python3 -m bench.random --seed 26 --out $W/random-seed26 --max-minutes 2.8 > $W/random.log 2>&1
echo "random exit $?"; grep -A5 "^| mode" $W/random-seed26/table.md | head -6
