#!/usr/bin/env bash
# Device call 7 (README.md here): the fused_wgmma GPU tests with test_pointer_array_batch_gives_the_strided_tma_bits
# (a pointer-array batch, copied, against the same products as an aligned strided batch, TMA).
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/n7; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call7.tgz -C $W .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"
timeout 120 python3 -m pytest -q -p no:cacheprovider -rfEs -n 8 tests/test_fused_wgmma_gpu.py > $W/tests.txt 2>&1
echo "tests exit $?"; tail -n 1 $W/tests.txt; grep -E "^FAILED|^ERROR" $W/tests.txt | head -8
