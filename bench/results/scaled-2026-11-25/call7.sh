#!/usr/bin/env bash
# Device call 7 (README.md here): call 6's memcheck, whose filter was malformed: the split-K reducers
# (FP64 adds) under compute-sanitizer memcheck.
set -o pipefail
W=/tmp/c7; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call7.tgz -C $W .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"
timeout 200 compute-sanitizer --tool memcheck --kernel-name kns=reduce_ \
  python3 -m pytest -q -p no:cacheprovider tests/test_fused_mma_gpu.py tests/test_simt_stream_gpu.py tests/test_gemv_gpu.py \
  -k "long_k or (tile64 and batches) or split" > $W/memcheck.txt 2>&1
echo "memcheck exit $?"; grep -E "ERROR SUMMARY|passed|failed" $W/memcheck.txt | tail -2
