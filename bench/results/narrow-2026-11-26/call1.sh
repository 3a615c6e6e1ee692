#!/usr/bin/env bash
# Device call 1 (README.md here): the held-out shapes tf32tf32 runs below 0.95x SGEMM with SGEMM >= 20 us, as sampled
# and with 16-byte aligned leading dimensions, on the planner's route and each family pinned (narrow_ab.py); ncu Speed of
# Light over the plane route's kernels (split pass, mainloop) on four narrow ones, aligned and not.
set -o pipefail
export PYTHONUNBUFFERED=1
D=$PWD/bench/results/narrow-2026-11-26
W=/tmp/n1; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call1.tgz -C $W .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"
cd /tmp
S="7297:10333:124:NT 7296:10336:124:NT 16294:5899:104:NN 16294:5900:104:NN 11450:15568:83:NN 2406:15001:134:TT"
timeout 200 ncu --clock-control none --kernel-name regex:"split_planes|planes_|fused|gemm|xmma|reduce" \
  --section SpeedOfLight --section LaunchStats --section MemoryWorkloadAnalysis \
  -o $W/rep python3 $D/../misses-2026-11-25/ncu_driver.py $S > $W/ncu.out 2> $W/ncu.err
echo "ncu exit $?"; tail -3 $W/ncu.err
ncu -i $W/rep.ncu-rep --csv --page details > $W/details.csv 2>> $W/ncu.err; echo "details exit $?"
rm -f $W/rep.ncu-rep
timeout 330 python3 $D/narrow_ab.py $D/shapes.txt $W/ab.json - planes fused_wgmma fused_mma simt > $W/ab.txt 2>&1
echo "ab exit $?"; tail -3 $W/ab.txt
gzip -f $W/details.csv
