#!/usr/bin/env bash
# Device call 7: the dot and GEMV batch tests after their helper moved into
# tests/test_simt_stream_gpu.py (run_batch), on the final tree.
set -o pipefail
W=/tmp/s7; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call7.tgz -C $W .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"
timeout 200 python3 -m pytest -q -p no:cacheprovider -rfEs -n 8 tests/test_simt_dot_gpu.py tests/test_gemv_gpu.py \
  tests/test_simt_stream_gpu.py tests/test_simt_slim_gpu.py 2>&1 | tee $W/tests.txt | tail -3
