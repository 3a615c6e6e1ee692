#!/usr/bin/env bash
# Device call 2 (README.md here): calibration of the FP32 routes at k <= 16 (2-D and batched; seed 27, a sample no
# fit has seen): simt (its own tile choice), fused_mma's FP32 form and gemv pinned, tf32tf32. Call 1 found simt's strip
# tile chosen where the FP32 form ran 1.2-1.5x faster (k <= 4).
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/m2; rm -rf $W; mkdir -p $W
trap 'gzip -f $W/calibration/results.json; tar czf $OUT/call2.tgz -C $W .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"
timeout 300 python3 -m bench.random --seed 27 --count 4000 --batched-count 2000 --budget 600 --max-k 16 --modes tf32tf32 \
  --families simt,fused_mma/fp32,gemv --out $W/calibration --max-minutes 4 --no-plots > $W/calibration.log 2>&1
echo "calibration exit $?"; tail -n 3 $W/calibration.log
