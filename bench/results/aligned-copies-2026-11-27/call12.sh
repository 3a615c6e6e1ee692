#!/usr/bin/env bash
# Device call 12 (README.md here): calibration for fused_wgmma's rows apart by kernel (plans printing "general" where
# an operand is off 16 bytes or copied): seed 27, the narrow and wide pins on products with a side <= 64
# (--max-width 64), and the wide pin alone on the whole sample; tf32tf32 and halfhalf.
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/a12; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call12.tgz -C $W .' EXIT
T0=$(date +%s)
python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real \
  -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $? $(( $(date +%s) - T0 )) s"; tail -3 $W/build.txt > $W/build.t && mv $W/build.t $W/build.txt
timeout 130 python3 -m bench.random --seed 27 --count 1000 --batched-count 300 --max-width 64 --modes tf32tf32,halfhalf \
  --families fused_wgmma:narrow,fused_wgmma --out $W/narrow --max-minutes 1.6 --no-plots > $W/narrow.log 2>&1
echo "narrow exit $? $(( $(date +%s) - T0 )) s"; tail -2 $W/narrow.log
timeout 130 python3 -m bench.random --seed 27 --count 1000 --batched-count 300 --modes tf32tf32,halfhalf \
  --families fused_wgmma --out $W/wide --max-minutes 1.6 --no-plots > $W/wide.log 2>&1
echo "wide exit $? $(( $(date +%s) - T0 )) s"; tail -2 $W/wide.log
gzip -f $W/*/results.json $W/*.log
