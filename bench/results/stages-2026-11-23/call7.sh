#!/usr/bin/env bash
# Device call 7 (README.md here): after the review's refactor (times_alpha, one source for
# BLAS's alpha rule in both epilogue forms): the GPU tests of every family that uses them.
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/s7; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call7.tgz -C $W .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"
timeout 200 python3 -m pytest -q -p no:cacheprovider -rfEs -n 8 tests/test_fused_mma_gpu.py tests/test_simt*_gpu.py \
  tests/test_c_abi_gpu.py tests/test_c_batched_gpu.py tests/test_streams_gpu.py -k "not short_of_memory" > $W/tests.txt 2>&1
echo "tests exit $?"; tail -1 $W/tests.txt
