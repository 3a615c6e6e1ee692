#!/usr/bin/env bash
# Device call 3 (README.md here): ncu over gemv's along-the-long-side kernel on small products where
# call 2 measured it 2-3x slower than its loads suggest (1 x 3185 x 4 TN: 51 KB in 9 us), and one large.
set -o pipefail
export PYTHONUNBUFFERED=1
D=$PWD/bench/results/tiny-2026-11-25
W=/tmp/g3; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call3.tgz -C $W .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"
S="1:3185:4:TN:gemv 93:1106:1:TN:gemv 1:975:11:TN:gemv 1:587:4:NN:gemv 1:4096:4096:NN:gemv 1:4096:4096:NN:gemv:wide"
cd /tmp && timeout 300 ncu --clock-control none --cache-control none --kernel-name regex:"gemv" \
  --section SpeedOfLight --section LaunchStats --section Occupancy --section WarpStateStats \
  --section SchedulerStats --section MemoryWorkloadAnalysis --section InstructionStats \
  python3 $D/ncu_driver.py $S > $W/ncu.txt 2>&1
echo "ncu exit $?"; grep -E "^[0-9]+:|Duration|Registers Per|Warp Cycles Per Issued|Executed Ipc A|Block Size|Grid Size|DRAM Throughput|Stall" $W/ncu.txt | head -80
