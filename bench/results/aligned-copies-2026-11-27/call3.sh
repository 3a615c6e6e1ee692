#!/usr/bin/env bash
# Device call 3 (README.md here): call 2's illegal instruction located: one call a process (cases.py) on each layout
# (aligned, K-major or M/N-major off 16 bytes, each side), under compute-sanitizer for the first that fails.
set -o pipefail
export PYTHONUNBUFFERED=1
D=$PWD/bench/results/aligned-copies-2026-11-27
W=/tmp/a3; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call3.tgz -C $W .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real \
  -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"
cd /tmp
i=0
while read -r f mode op m k n ea eb off; do
  i=$((i+1))
  timeout 30 python3 $D/cases.py $f $mode $op $m $k $n $ea $eb $off > $W/case$i.txt 2>&1
  rc=$?; echo "case $i ($f $mode $op $m $k $n $ea $eb $off): rc $rc $(grep -h residual $W/case$i.txt | cut -d: -f2-)"
  if [ $rc -ne 0 ] && [ ! -f $W/sanitizer.txt ]; then
    timeout 120 compute-sanitizer --print-limit 5 python3 $D/cases.py $f $mode $op $m $k $n $ea $eb $off > $W/sanitizer.txt 2>&1
    grep -E "Invalid|Illegal|Error|at 0x|by thread|Address|kernel" $W/sanitizer.txt | head -12
  fi
done <<'CASES'
fused_wgmma:narrow tf32tf32 NN 1000 256 32 0 0 0
fused_wgmma tf32tf32 NN 1000 256 256 0 0 0
fused_wgmma:narrow tf32tf32 NN 1000 256 32 0 0 1
fused_wgmma:narrow tf32tf32 NN 1000 256 32 1 0 0
fused_wgmma:narrow tf32tf32 NN 1000 256 32 0 1 0
fused_wgmma:narrow tf32tf32 TN 1000 256 32 1 0 0
fused_wgmma:narrow tf32tf32 NT 1000 256 32 0 1 0
fused_wgmma:narrow halfhalf NN 1000 256 32 3 2 0
fused_wgmma tf32tf32 NN 1000 256 256 1 0 0
fused_wgmma tf32tf32 TN 1000 256 256 1 0 0
fused_wgmma tf32tf32 NN 1000 256 256 0 1 0
fused_wgmma tf32tf32 NT 1000 256 256 0 1 0
fused_wgmma:narrow tf32tf32 NN 3 256 1000 0 1 0
CASES
