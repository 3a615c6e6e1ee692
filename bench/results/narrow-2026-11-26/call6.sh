#!/usr/bin/env bash
# Device call 6 (README.md here): the tree as landed against main (05f783e, .baseline) on an H100: the fused_wgmma
# GPU tests, narrow_ab.py with fused_wgmma pinned in both trees (summary.py narrow call6).
set -o pipefail
export PYTHONUNBUFFERED=1
D=$PWD/bench/results/narrow-2026-11-26
W=/tmp/n6; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call6.tgz -C $W .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index --target /tmp/base-site \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bbase .baseline > $W/build-base.txt 2>&1 &
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"; wait; echo "baseline build done"
timeout 120 python3 -m pytest -q -p no:cacheprovider -rfEs -n 8 tests/test_fused_wgmma_gpu.py > $W/tests.txt 2>&1
echo "tests exit $?"; tail -n 1 $W/tests.txt; grep -E "^FAILED|^ERROR" $W/tests.txt | head -8
timeout 100 python3 $D/narrow_ab.py $D/shapes.txt $W/ab.json - fused_wgmma > $W/ab.txt 2>&1; echo "ab exit $?"
PYTHONPATH=/tmp/base-site timeout 100 python3 $D/narrow_ab.py $D/shapes.txt $W/ab-base.json fused_wgmma \
  > $W/ab-base.txt 2>&1; echo "ab base exit $?"
