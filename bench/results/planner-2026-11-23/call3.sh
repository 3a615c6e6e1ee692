#!/usr/bin/env bash
# Device call 3: call 2's one failure (16 x 16384 x 16384 halfhalf on the planes, one split,
# 1.39x SGEMM's residual) fixed by kMaxChainK (planner.cpp); the planner's tests again, the
# stream tests and the fused families' tests on the rebuilt library.
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/w3; mkdir -p $W
trap 'tar czf $OUT/call3.tgz -C $W .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"; tail -1 $W/build.txt
timeout 240 python3 -m pytest -q -p no:cacheprovider -rfEs -n 6 tests/test_planner_gpu.py tests/test_streams_gpu.py \
  tests/test_simt_stream_gpu.py tests/test_fused_mma_gpu.py tests/test_c_abi_gpu.py tests/test_python_api.py \
  2>&1 | tee $W/tests.txt | tail -4
