#!/usr/bin/env bash
# Device call 4 (README.md here): the four fused_wgmma rows refitted on call 3's calibration (TMA and copied
# operands apart). Against main (05f783e, .baseline): planner and fused_wgmma GPU tests; aligned_ab.py (seed 7:
# 150 random shapes and 60 batches, every side a multiple of 8) and the held-out sample (seed 26) for both trees.
set -o pipefail
export PYTHONUNBUFFERED=1
D=$PWD/bench/results/narrow-2026-11-26
W=/tmp/n4; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call4.tgz -C $W --exclude="*.pt" --exclude="*.png" .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index --target /tmp/base-site \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bbase .baseline > $W/build-base.txt 2>&1 &
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"; wait; echo "baseline build done"
timeout 150 python3 -m pytest -q -p no:cacheprovider -rfEs -n 8 tests/test_fused_wgmma_gpu.py \
  tests/test_planner_gpu.py > $W/tests.txt 2>&1
echo "tests exit $?"; tail -n 1 $W/tests.txt; grep -E "^FAILED|^ERROR" $W/tests.txt | head -8
cd /tmp
timeout 140 python3 $D/aligned_ab.py 7 150 60 $W/aligned.json > $W/aligned.txt 2>&1; echo "aligned exit $?"
PYTHONPATH=/tmp/base-site timeout 140 python3 $D/aligned_ab.py 7 150 60 $W/aligned-base.json > $W/aligned-base.txt 2>&1
echo "aligned base exit $?"
cd - > /dev/null
PYTHONPATH=/tmp/base-site timeout 150 python3 -m bench.random --seed 26 --out $W/base-random --max-minutes 1.4 \
  --no-plots > $W/base-random.log 2>&1
echo "baseline random exit $?"; grep -E "^\| (tf32tf32|halfhalf|auto) \| (1018|200) " $W/base-random/table.md
timeout 150 python3 -m bench.random --seed 26 --out $W/random --max-minutes 1.4 --no-plots > $W/random.log 2>&1
echo "random exit $?"; grep -E "^\| (tf32tf32|halfhalf|auto) \| (1018|200) " $W/random/table.md
