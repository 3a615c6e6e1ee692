#!/usr/bin/env bash
# Device call P (README.md): ncu over prof.py: why the piped tiles run 0.4-0.8x cuBLAS's SIMT kernel.
set -o pipefail
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
D=bench/results/piped-2026-12-07; T0=$(date +%s)
python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real \
  -C build-dir=/tmp/b1 . > $OUT/build.txt 2>&1; echo "build exit $? $(( $(date +%s) - T0 )) s"
timeout 240 ncu --clock-control none --section SpeedOfLight --section Occupancy --section LaunchStats \
  --section WarpStateStats --section InstructionStats --section SchedulerStats --section ComputeWorkloadAnalysis \
  python3 $D/prof.py > $OUT/ncu.txt 2>&1
echo "ncu exit $? $(( $(date +%s) - T0 )) s"
grep -E "^  [a-zA-Z_].*\(|Duration|Achieved Occupancy|Registers Per|Warp Cycles Per Issued|Executed Ipc A|Issue Slots Busy|Block Size|Executed Instructions  |Stall|Shared Memory Configuration Size|Grid Size" $OUT/ncu.txt | cut -c1-150 | head -150
