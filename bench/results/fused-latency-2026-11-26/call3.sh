#!/usr/bin/env bash
# Device call 3 (README.md here): where fused_mma's 64 x 64 tile spends its time on batches of medium products that
# fill the GPU many times over (held-out b0010, b0073 at 0.77x / 0.71x torch.bmm, fewer products): ncu with stall
# samples per instruction, pipe utilisation, occupancy; torch.bmm's kernel beside it. Library built with -lineinfo.
set -o pipefail
export PYTHONUNBUFFERED=1
D=$PWD/bench/results
W=/tmp/f3; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call3.tgz -C $W .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C cmake.define.CMAKE_CUDA_FLAGS=-lineinfo \
  -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"
S="2000:301:177:154 1000:87:78:283"
cd /tmp && timeout 400 ncu --clock-control none --kernel-name regex:"fused_mma|gemm|sgemm" \
  --section SourceCounters --section WarpStateStats --section SpeedOfLight --section Occupancy \
  --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis --section LaunchStats --section SchedulerStats \
  --import-source yes -o $W/rep python3 $D/batched-lines-2026-11-26/ncu_driver.py $S > $W/ncu.out 2> $W/ncu.err
echo "ncu exit $?"; tail -3 $W/ncu.err; cat $W/ncu.out | grep -v "^==PROF== Profiling"
ncu -i $W/rep.ncu-rep --csv --page details > $W/details.csv 2>> $W/ncu.err
ncu -i $W/rep.ncu-rep --csv --page source --print-source sass > $W/sass.csv 2>> $W/ncu.err
echo "export exit $?"; rm -f $W/rep.ncu-rep; gzip -f $W/*.csv; ls -la $W
