#!/usr/bin/env bash
# Device call 3 (README.md here): ncu over ecgemm's kernels and cuBLAS's on six of call 1's shapes where every family
# ran 1.3-1.6x cuBLAS's time (fused_mma's FP32 form, its 64 and 32 tiles), clocks as found.
set -o pipefail
export PYTHONUNBUFFERED=1
D=$PWD/bench/results/misses-2026-11-25
W=/tmp/m3; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call3.tgz -C $W .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"
S="15060:4:18:NT 861:14:793:NT 1914:35:536:NT 10716:22:72:TN 9:109:13946:TN 126:99:522:NN"
cd /tmp && timeout 400 ncu --clock-control none --cache-control none --launch-skip 0 \
  --section SpeedOfLight --section LaunchStats --section Occupancy --section WarpStateStats \
  --section SchedulerStats --section MemoryWorkloadAnalysis --csv --page details \
  python3 $D/ncu_driver.py $S > $W/ncu.csv 2> $W/ncu.err
echo "ncu exit $?"; gzip -f $W/ncu.csv; ls -la $W
