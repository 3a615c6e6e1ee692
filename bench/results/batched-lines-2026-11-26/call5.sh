#!/usr/bin/env bash
# Device call 5 (README.md here): ncu over the lines kernel and torch.bmm's kernel on the two batches still below
# torch.bmm (12999 x 312 x 196 x 1, 7162 x 390 x 43 x 1) and on 12552 x 40 x 71 x 1, clocks as found.
set -o pipefail
export PYTHONUNBUFFERED=1
D=$PWD/bench/results/batched-lines-2026-11-26
W=/tmp/l5; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call5.tgz -C $W .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"
cd /tmp && timeout 300 ncu --clock-control none --section SpeedOfLight --section MemoryWorkloadAnalysis \
  --section Occupancy --section LaunchStats --section WarpStateStats --csv --page details \
  python3 $D/ncu_driver.py 12999:312:196:1 7162:390:43:1 12552:40:71:1 > $W/ncu.csv 2> $W/ncu.err
echo "ncu exit $?"; grep -c "gemv_lines" $W/ncu.csv; gzip -f $W/ncu.csv
