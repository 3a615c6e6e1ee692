#!/usr/bin/env bash
# Device call 8 (README.md here): the fused_wgmma tests after their copied-operand and pointer-array checks became
# helpers shared by the wide and narrow test files (no library change since call 7).
set -o pipefail
W=/tmp/w8; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call8.tgz -C $W .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real \
  -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"
timeout 150 python3 -m pytest -q -p no:cacheprovider -rfEs -n 8 tests/test_fused_wgmma_narrow_gpu.py tests/test_fused_wgmma_gpu.py \
  > $W/tests.txt 2>&1
echo "tests exit $?"; tail -n 1 $W/tests.txt; grep -E "^FAILED|^ERROR" $W/tests.txt | head -8
