#!/usr/bin/env bash
# Device call 2 (README.md here): k <= 32 on grids of 0.5-2 waves. The tree with simt_tiles_lab.patch (simt's square
# and slim tiles offered at k <= 32 under ECGEMM_LAB_SIMT_TILES): every route timed on the sample's misses (lab_k32.py),
# then ncu on the FP32 form, the stream tile, simt's tile and cuBLAS at two shapes.
set -o pipefail
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
W=/tmp/s2; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call2.tgz -C $W .' EXIT
T0=$(date +%s)
git apply bench/results/sweep-2026-11-27/simt_tiles_lab.patch || exit 1
python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real \
  -C build-dir=/tmp/blab . > $W/build.txt 2>&1
echo "build exit $? $(( $(date +%s) - T0 )) s"; tail -1 $W/build.txt
L=bench/results/sweep-2026-11-27/lab_k32.py
timeout 200 python3 $L > $W/routes.md 2> $W/routes.log
echo "routes exit $? $(( $(date +%s) - T0 )) s"; cat $W/routes.md | cut -c1-400; tail -3 $W/routes.log
for spec in "1129,25,419 NN" "6009,28,77 NT" "3950,8,3687 NN"; do
  set -- $spec
  for r in default stream simt_tiles cublas; do
    timeout 60 ncu --clock-control none --section SpeedOfLight --section Occupancy --section LaunchStats \
      --section WarpStateStats --section SchedulerStats --section MemoryWorkloadAnalysis --profile-from-start off --launch-skip 1 --launch-count 1 \
      --csv --page details python3 $L $1 $2 $r > $W/ncu-${1//,/x}-$r.csv 2>> $W/ncu.log
  done
done
echo "ncu done $(( $(date +%s) - T0 )) s"
for f in $W/ncu-*.csv; do echo "== $f"; grep -E '"(Duration|Compute \(SM\) Throughput|DRAM Throughput|Achieved Occupancy|Theoretical Occupancy|Registers Per Thread|Issue Slots Busy|Block Size|Grid Size|No Eligible)"' $f | awk -F'","' '{print $(NF-2)": "$NF}' | tr -d '"' | head -12; grep -o '"[a-z_0-9]*kernel[^"]*"' $f | head -1 | cut -c1-100; done
echo "done $(( $(date +%s) - T0 )) s"
