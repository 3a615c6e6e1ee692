#!/usr/bin/env bash
# Device call 3 (README.md here): where a small product's CTA spends its time. ncu (clocks as
# found) with PC sampling on one kernel each: fused_mma unsplit (118x44x131), fused_mma in a
# cluster (29x74x105), simt 128x64 (384^3): stall reasons, instruction counts, and the SASS
# with its samples.
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/s3; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call3.tgz -C $W .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"
P=bench/results/stages-2026-11-23/profile_small.py
prof() {  # name kernel-regex m k n family
  timeout 120 ncu --clock-control none -k regex:$2 --launch-skip 3 --launch-count 1 --set full \
    --import-source no -o $W/$1 python3 $P $3 $4 $5 $6 > $W/$1.log 2>&1; echo "$1 exit $?"
  ncu -i $W/$1.ncu-rep --page raw --csv > $W/$1-raw.csv 2>&1
  ncu -i $W/$1.ncu-rep --page source --print-source sass --csv > $W/$1-sass.csv 2>&1
  ncu -i $W/$1.ncu-rep --page details > $W/$1-details.txt 2>&1
  echo "  $(grep -c . $W/$1-sass.csv) sass lines"
}
prof mma-unsplit fused_mma 118 44 131 fused_mma
prof mma-cluster fused_mma 29 74 105 fused_mma
prof simt-384 simt_kernel 384 384 384 simt
rm -f $W/*.ncu-rep
