#!/usr/bin/env bash
# Device call 1 (README.md here): times of the batched FP32 misses against torch.bmm, then ncu on ecgemm's kernel for
# four of them (speed of light, memory, warp states).
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/b1; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call1.tgz -C $W .' EXIT
T0=$(date +%s)
python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real \
  -C build-dir=/tmp/random-ab/build-new . > $W/build.txt 2>&1
echo "build exit $? $(( $(date +%s) - T0 )) s"; tail -1 $W/build.txt
P=bench/results/batched-fp32-2026-11-27/profile.py
python3 $P 2>&1 | tee $W/times.txt
for i in 0 1 2 3; do
  timeout 60 ncu --clock-control none -k regex:'simt|fused_mma' --launch-skip 1 --launch-count 1 \
    --section SpeedOfLight --section MemoryWorkloadAnalysis --section LaunchStats --section Occupancy \
    --section WarpStateStats --section SchedulerStats python3 $P --one $i > $W/ncu-$i.txt 2>&1
  echo "ncu $i exit $? $(( $(date +%s) - T0 )) s"
  grep -E "simt|fused_mma|Duration|DRAM Throughput|Memory Throughput|Compute \(SM\)|Registers Per|Achieved Occupancy|Theoretical Occupancy|Issued Warp|No Eligible|Warp Cycles Per Issued|Grid Size|Block Size|Stall|L1/TEX Hit|L2 Hit|Waves Per SM" $W/ncu-$i.txt | cut -c1-160 | head -40
done
