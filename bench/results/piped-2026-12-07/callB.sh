#!/usr/bin/env bash
# Device call B (README.md): calibrate the piped tiles' rows (one a shape: cost_model.hpp). Seed 41's sample,
# tf32tf32, the six piped tiles pinned beside simt's other tiles and fused_mma's 32-wide tile (the routes they
# compete with), then the four rows fitted on the device, scored out of sample. tools.fit_cost_model needs no GPU,
# so the fit can be redone here from cal41/results.json.
set -o pipefail
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
T0=$(date +%s)
python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real \
  -C build-dir=/tmp/b1 . > $OUT/build.txt 2>&1; echo "build exit $? $(( $(date +%s) - T0 )) s"
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv,noheader
FAM=simt:piped32x32,simt:piped32x64,simt:piped64x32,simt:piped64x64,simt:piped64x128,simt:piped128x64,simt,fused_mma:32
timeout 400 python3 -m bench.random --seed 41 --count 1000 --batched-count 300 --modes tf32tf32 \
  --families $FAM --out $OUT/cal41 --max-minutes 5.7 --no-plots > $OUT/cal41.log 2>&1
echo "calibration exit $? $(( $(date +%s) - T0 )) s"; tail -n 3 $OUT/cal41.log
python3 -m tools.fit_cost_model $OUT/cal41/results.json --rows simt/piped32x32,simt/piped32x64,simt/piped64x64,simt/piped64x128 --write --holdout 7 --report $OUT/fit.md \
  > $OUT/fit.txt 2>&1; echo "fit exit $? $(( $(date +%s) - T0 )) s"; tail -n 25 $OUT/fit.txt
gzip -f $OUT/cal41/results.json $OUT/cal41.log
