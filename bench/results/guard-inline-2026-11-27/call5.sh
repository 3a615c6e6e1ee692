#!/usr/bin/env bash
# Device call 5 (README.md here): does racecheck follow fused_wgmma's mbarrier protocol? mbarrier_race.cu, a ring of two
# slots with ptx.cuh's arrive / try_wait.parity, race-free by construction, under racecheck: consumer warps freeing a
# slot with one arrival a warp (variant 0, as consume) or every thread arriving (variant 1).
set -o pipefail
W=/tmp/g5; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call5.tgz -C $W .' EXIT
D=bench/results/guard-inline-2026-11-27
nvcc -std=c++17 -arch=sm_90a -I libecgemm/kernels/sm90 $D/mbarrier_race.cu -o $W/mbarrier_race > $W/build.txt 2>&1
echo "build exit $?"
for v in 0 1; do
  $W/mbarrier_race $v
  timeout 60 compute-sanitizer --tool racecheck --racecheck-report all --print-limit 6 $W/mbarrier_race $v > $W/racecheck$v.txt 2>&1
  echo "racecheck variant $v exit $?"; grep -E "SUMMARY|sum" $W/racecheck$v.txt
done
