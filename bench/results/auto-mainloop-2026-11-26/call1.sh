#!/usr/bin/env bash
# Device call 1 (README.md here): ncu over halfhalf's and AUTO's plane mainloops at 4096^3 (issue 26: AUTO's persistent
# mainloop took 656 us against halfhalf's 633 in auto-h100-2026-11-25), the second call of each, clocks as found.
set -o pipefail
export PYTHONUNBUFFERED=1
D=$PWD/bench/results/auto-mainloop-2026-11-26
W=/tmp/a1; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call1.tgz -C $W .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"
cd /tmp && timeout 300 ncu --clock-control none --kernel-name regex:planes_wgmma --launch-skip 3 \
  --section SpeedOfLight --section LaunchStats --section Occupancy --section WarpStateStats --section SchedulerStats \
  --section MemoryWorkloadAnalysis --section InstructionStats --csv --page details \
  python3 $D/ncu_driver.py > $W/ncu.csv 2> $W/ncu.err
echo "ncu exit $?"; grep -c "planes_wgmma" $W/ncu.csv; gzip -f $W/ncu.csv
