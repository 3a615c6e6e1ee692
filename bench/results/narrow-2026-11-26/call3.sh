#!/usr/bin/env bash
# Device call 3 (README.md here): call 2's copies in a kernel of their own (the TMA path's code as on main), and
# the planner pricing plans with copied operands on rows of their own. Against main (05f783e, .baseline): the
# fused_wgmma and planner GPU tests, narrow_ab.py (the planner's route and fused_wgmma pinned; main's fused_wgmma
# pinned), and a calibration sample (seed 25) with fused_wgmma pinned for the four fused_wgmma rows.
set -o pipefail
export PYTHONUNBUFFERED=1
D=$PWD/bench/results/narrow-2026-11-26
W=/tmp/n3; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call3.tgz -C $W .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index --target /tmp/base-site \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bbase .baseline > $W/build-base.txt 2>&1 &
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"; wait; echo "baseline build done"
timeout 200 python3 -m pytest -q -p no:cacheprovider -rfEs -n 8 tests/test_fused_wgmma_gpu.py \
  tests/test_planner_gpu.py > $W/tests.txt 2>&1
echo "tests exit $?"; tail -n 1 $W/tests.txt; grep -E "^FAILED|^ERROR" $W/tests.txt | head -8
timeout 100 python3 $D/narrow_ab.py $D/shapes.txt $W/ab.json - fused_wgmma > $W/ab.txt 2>&1; echo "ab exit $?"
PYTHONPATH=/tmp/base-site timeout 100 python3 $D/narrow_ab.py $D/shapes.txt $W/ab-base.json fused_wgmma \
  > $W/ab-base.txt 2>&1; echo "ab base exit $?"
timeout 230 python3 -m bench.random --seed 25 --modes tf32tf32,halfhalf --families fused_wgmma \
  --out $W/calibration --max-minutes 3.2 --no-plots > $W/calibration.log 2>&1
echo "calibration exit $?"; tail -2 $W/calibration.log
