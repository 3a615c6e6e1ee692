#!/usr/bin/env bash
# Device call 5 (README.md here): what limits simt's slim tiles on thin products with a long k (issue 25's largest
# class of misses from 20 us up): ncu over one simt kernel (pinned) on four held-out / calibration shapes, main.
set -o pipefail
export PYTHONUNBUFFERED=1
D=$PWD/bench/results/ring-2026-11-26
W=/tmp/r5; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call5.tgz -C $W .' EXIT
T0=$(date +%s)
python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real \
  -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $? $(( $(date +%s) - T0 )) s"
cd /tmp
for shape in "TN 16233 10007 21" "TN 14626 3729 22" "TN 20 16360 13490" "NN 9378 5397 30"; do
  tag="${shape// /-}"
  timeout 100 ncu --clock-control none --kernel-name regex:simt --launch-skip 2 --launch-count 1 \
    --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section Occupancy \
    --section LaunchStats --section SchedulerStats --section InstructionStats --csv --page details \
    python3 $D/thin_probe.py simt $shape > $W/ncu-$tag.csv 2> $W/ncu-$tag.err
  echo "$tag exit $? $(( $(date +%s) - T0 )) s $(grep -m1 -o 'family=[^"]*' $W/ncu-$tag.csv | head -c 70)"
  grep -E '"(Duration|Executed Instructions|DRAM Throughput|Memory Throughput|Achieved Occupancy|Issued Warp Per Scheduler|Warp Cycles Per Issued Instruction|Registers Per Thread|Grid Size|Block Limit Registers|Block Limit Shared Mem|L1/TEX Hit Rate|L2 Hit Rate|Stall Long Scoreboard|Stall Barrier)"' \
    $W/ncu-$tag.csv | awk -F'","' '{print "   ", $(NF-2), $NF}'
done
