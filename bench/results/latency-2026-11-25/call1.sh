#!/usr/bin/env bash
# Device call 1 (README.md here): where fused_mma's GPU time goes on small products. Build; ncu
# (clocks as found) over the kernels of shapes.py, ecgemm tf32tf32 and cuBLAS SGEMM, per kernel:
# duration, launch and occupancy figures, warp stall reasons.
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/l1; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call1.tgz -C $W .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"
python3 bench/results/latency-2026-11-25/shapes.py tf32tf32 > $W/plans.txt 2>&1; cat $W/plans.txt
timeout 300 ncu --clock-control none --target-processes all \
  --section SpeedOfLight --section LaunchStats --section Occupancy --section WarpStateStats \
  --section SchedulerStats --csv --page details \
  python3 bench/results/latency-2026-11-25/shapes.py tf32tf32 > $W/ncu.csv 2> $W/ncu.err
echo "ncu exit $?"; wc -l $W/ncu.csv; tail -3 $W/ncu.err
