#!/usr/bin/env bash
# Device call 1 (README.md here): where AUTO's time goes against halfhalf at 4096^3 .. 16384^3
# (bench.auto: per-kernel GPU time), and energy at 8192^3 for SGEMM, tf32tf32, halfhalf, AUTO.
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/a1; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call1.tgz -C $W .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"
timeout 300 python3 -m bench.auto --sizes 4096,8192,16384 --out $W/auto > $W/auto.log 2>&1
echo "auto exit $?"; grep -E "^\| " $W/auto/table.md | cut -d'|' -f2-10
timeout 200 python3 -m bench --shapes 8192x8192x8192 --sections energy --no-xla --no-plots \
  --methods cublas_sgemm,ecgemm_tf32tf32,ecgemm_halfhalf,ecgemm_auto --out $W/energy > $W/energy.log 2>&1
echo "energy exit $?"; grep -iE "GFLOP/J|^\| " $W/energy/table.md | head -20
