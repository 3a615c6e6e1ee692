#!/usr/bin/env bash
# Device call 2 (README.md here): ncu over the simt stream and strip kernels and fused_mma's 32 tile on
# the same small products (call 1: the simt kernels ran 4.5-6.1 us where fused_mma ran 2.3-2.4).
set -o pipefail
export PYTHONUNBUFFERED=1
R=$PWD; D=$R/bench/results/tiny-2026-11-25
W=/tmp/t2; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call2.tgz -C $W .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"
S="7:12:208:NT 7:12:208:NT:fused_mma:32 6:8:1964:TT 6:8:1964:TT:fused_mma:32 2929:1:5595:TN 198:10:187:TT"
cd /tmp && timeout 300 ncu --clock-control none --cache-control none \
  --kernel-name regex:"simt_|fused_mma_kernel" \
  --section SpeedOfLight --section LaunchStats --section Occupancy --section WarpStateStats \
  --section SchedulerStats --section MemoryWorkloadAnalysis --section InstructionStats \
  python3 $D/ncu_driver.py $S > $W/ncu.txt 2>&1
echo "ncu exit $?"; grep -E "Duration|Registers Per|Warp Cycles Per Issued|Executed Ipc A" $W/ncu.txt | head -40
