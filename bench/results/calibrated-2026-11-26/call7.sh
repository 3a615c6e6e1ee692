#!/usr/bin/env bash
# Device call 7 (README.md here): where AUTO's FP32-block guard costs on fused_mma (issue 26: AUTO ran 0.969x
# tf32tf32's speed on the same routes in call 4): ncu over one fused_mma kernel in each mode on two held-out shapes
# (64 tile unsplit, 32 tile unsplit), clocks as found.
set -o pipefail
export PYTHONUNBUFFERED=1
D=$PWD/bench/results/calibrated-2026-11-26
W=/tmp/k7; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call7.tgz -C $W .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"
cd /tmp
for shape in "1073 618 1831" "548 135 1000"; do
  for mode in tf32tf32 auto; do
    tag="$mode-${shape// /x}"
    timeout 120 ncu --clock-control none --kernel-name regex:fused_mma --launch-skip 2 --launch-count 1 \
      --section SpeedOfLight --section WarpStateStats --section InstructionStats --section Occupancy \
      --section SchedulerStats --csv --page details python3 $D/guard_probe.py $mode $shape > $W/ncu-$tag.csv 2> $W/ncu-$tag.err
    echo "$tag exit $?"; grep -m1 "family=" $W/ncu-$tag.csv
    grep -E '"(Duration|Executed Instructions|Warp Cycles Per Issued Instruction|Achieved Occupancy|Issued Warp Per Scheduler|Registers Per Thread)"' $W/ncu-$tag.csv | awk -F'","' '{print "   ", $(NF-2), $NF}'
  done
done
