#!/usr/bin/env bash
# Device call 11 (README.md here): main as landed: compute-sanitizer memcheck over the GPU tests of the families whose
# first kernels became programmatic dependents this session (gemv, simt's tiles, fused_wgmma) and the new streams
# test, eight pytest workers under one sanitizer (calls 2 and 8 ran out of time with one).
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/p11; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call11.tgz -C $W .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $? $(date +%T)"
timeout 300 compute-sanitizer --tool memcheck --error-exitcode 3 --print-limit 20 python3 -m pytest -q \
  -p no:cacheprovider -n 8 tests/test_gemv_gpu.py tests/test_simt_stream_gpu.py tests/test_simt_strips_gpu.py \
  tests/test_simt_dot_gpu.py tests/test_simt_slim_gpu.py tests/test_fused_wgmma_gpu.py tests/test_streams_gpu.py \
  -k "not short_of_memory" > $W/memcheck.txt 2>&1
echo "memcheck exit $? $(date +%T)"; grep -E "passed|failed" $W/memcheck.txt | tail -1; grep -c "Invalid" $W/memcheck.txt
grep "ERROR SUMMARY" $W/memcheck.txt | sort | uniq -c
