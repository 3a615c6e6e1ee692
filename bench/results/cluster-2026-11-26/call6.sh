#!/usr/bin/env bash
# Device call 6 (README.md here): the tree as landed (afba83a); a calibration sample (seed 25, 1000 shapes and 300
# batches, the three corrected modes) with every family pinned, fused_mma's tiles split as planned and unsplit and
# its FP32 form, for one fit of every row with the features of call 5 (tools/fit_cost_model.py).
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/c6; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call6.tgz -C $W .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"
timeout 400 python3 -m bench.random --seed 25 --count 1000 --batched-count 300 --modes tf32tf32,halfhalf,auto \
  --families simt,gemv,planes,fused_wgmma,fused_mma:64,fused_mma:32,fused_mma:64/unsplit,fused_mma:32/unsplit,fused_mma/fp32 \
  --out $W/calibration --max-minutes 6.0 --no-plots > $W/calibration.log 2>&1
echo "calibration exit $?"; tail -3 $W/calibration.log; grep "measured\|budget" $W/calibration/table.md | head -3
gzip -f $W/calibration/results.json $W/calibration.log
