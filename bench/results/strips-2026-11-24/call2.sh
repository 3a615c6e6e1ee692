#!/usr/bin/env bash
# Device call 2 (README.md here): a calibration sample for the strip tile's cost row: 800
# batches (seed 25) with simt, gemv, fused_mma and fused_wgmma pinned (tf32tf32), for
# tools/fit_cost_model.py --rows simt/strips.
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/s2; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call2.tgz -C $W .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"
timeout 300 python3 -m bench.random --seed 25 --count 1 --batched-count 800 --modes tf32tf32 \
  --families simt,gemv,fused_mma,fused_wgmma --out $W/calibration --max-minutes 4.5 --no-plots > $W/calibration.log 2>&1
echo "calibration exit $?"; tail -3 $W/calibration.log; grep "^| tf32tf32 | 800" $W/calibration/table.md
