#!/usr/bin/env bash
# Device call 2 (README.md here): fused_wgmma's operands TMA cannot address copied by the transform threads
# (cp.async into the staging layout TMA writes) instead of read by the split from global memory. Against main
# (05f783e, carried as .baseline): the fused_wgmma GPU tests (the copied operands give the TMA path's bits),
# compute-sanitizer memcheck and racecheck over the copies, narrow_ab.py with fused_wgmma pinned in both trees,
# and a calibration sample (seed 25) with fused_wgmma pinned for tools/fit_cost_model.py --rows fused_wgmma/...
set -o pipefail
export PYTHONUNBUFFERED=1
D=$PWD/bench/results/narrow-2026-11-26
W=/tmp/n2; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call2.tgz -C $W .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index --target /tmp/base-site \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bbase .baseline > $W/build-base.txt 2>&1 &
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"; wait; echo "baseline build done"
timeout 200 python3 -m pytest -q -p no:cacheprovider -rfEs -n 8 tests/test_fused_wgmma_gpu.py > $W/tests.txt 2>&1
echo "tests exit $?"; tail -n 1 $W/tests.txt; grep -E "^FAILED|^ERROR" $W/tests.txt | head -8
cd /tmp
timeout 150 compute-sanitizer --tool memcheck --error-exitcode 3 python3 $D/wgmma_copies_check.py > $W/memcheck.txt 2>&1
echo "memcheck exit $?"; tail -n 2 $W/memcheck.txt
timeout 150 compute-sanitizer --tool racecheck --error-exitcode 3 python3 $D/wgmma_copies_check.py > $W/racecheck.txt 2>&1
echo "racecheck exit $?"; tail -n 2 $W/racecheck.txt
cd - > /dev/null
timeout 100 python3 $D/narrow_ab.py $D/shapes.txt $W/ab.json - fused_wgmma > $W/ab.txt 2>&1; echo "ab exit $?"
PYTHONPATH=/tmp/base-site timeout 100 python3 $D/narrow_ab.py $D/shapes.txt $W/ab-base.json fused_wgmma \
  > $W/ab-base.txt 2>&1; echo "ab base exit $?"
timeout 230 python3 -m bench.random --seed 25 --modes tf32tf32,halfhalf --families fused_wgmma \
  --out $W/calibration --max-minutes 3.2 --no-plots > $W/calibration.log 2>&1
echo "calibration exit $?"; tail -2 $W/calibration.log
