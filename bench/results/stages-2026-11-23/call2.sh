#!/usr/bin/env bash
# Device call 2 (README.md here): what limits small products. ncu (clocks as found) on the last
# of four calls of a few small shapes: fused_mma and simt pinned, the routed plan, and the kernel
# cuBLAS SGEMM picks (its grid and tile), with speed-of-light, warp-state and launch sections.
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/s2; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call2.tgz -C $W .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"
P=bench/results/stages-2026-11-23/profile_small.py
run() {  # shape method
  timeout 60 ncu --clock-control none --launch-skip 0 --launch-count 99 \
    --section SpeedOfLight --section WarpStateStats --section LaunchStats --section Occupancy \
    --section SchedulerStats python3 $P $1 $2 $3 $4 > $W/ncu-$1x$2x$3-$4.txt 2>&1
  echo "$1x$2x$3 $4 exit $?"
}
for s in "29 74 105" "118 44 131" "256 1024 256" "1 6769 2680" "384 384 384"; do
  for meth in cublas fused_mma simt routed; do run $s $meth; done
done
