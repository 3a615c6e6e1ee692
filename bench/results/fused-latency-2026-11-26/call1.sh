#!/usr/bin/env bash
# Device call 1 (README.md here): where fused_mma's CTAs wait, per SASS instruction, on five latency-bound held-out
# shapes (ncu SourceCounters: warp stall samples per instruction; the library built with -lineinfo), clocks as found.
set -o pipefail
export PYTHONUNBUFFERED=1
D=$PWD/bench/results/fused-latency-2026-11-26
W=/tmp/f1; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call1.tgz -C $W .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C cmake.define.CMAKE_CUDA_FLAGS=-lineinfo \
  -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"
S="15060:4:18:NT 9:109:13946:TN 1914:35:536:NT 173:71:665:TT 5094:72:10:NN"
cd /tmp && timeout 400 ncu --clock-control none --kernel-name regex:"fused_mma|xmma|sgemm|gemm" \
  --section SourceCounters --section WarpStateStats --section LaunchStats --section SpeedOfLight \
  --import-source yes -o $W/rep python3 $D/../misses-2026-11-25/ncu_driver.py $S > $W/ncu.out 2> $W/ncu.err
echo "ncu exit $?"; tail -3 $W/ncu.err
ncu -i $W/rep.ncu-rep --csv --page details > $W/details.csv 2>> $W/ncu.err
echo "details exit $?"
# Per-instruction stall samples of each profiled kernel (SASS beside its CUDA line).
n=$(ncu -i $W/rep.ncu-rep --csv --page raw --metrics gpu__time_duration.sum 2>/dev/null | tail -n +3 | wc -l)
echo "kernels $n"
for i in $(seq 0 $((n - 1))); do
  ncu -i $W/rep.ncu-rep --csv --page source --print-source sass --launch-skip $i --launch-count 1 \
    > $W/sass_$i.csv 2>> $W/ncu.err || echo "source page $i failed"
done
ncu -i $W/rep.ncu-rep --csv --page source --print-source sass > $W/all_sass.csv 2>> $W/ncu.err
echo "all source exit $?"
ls -la $W | head -30
gzip -f $W/*.csv
