#!/usr/bin/env bash
# Device call 3 (README.md here): where AUTO's extra instructions on fused_mma are executed (calls 1-2 of
# calibrated-2026-11-26 and call 2 here: +10% instructions, not the per-value test). main (9c41db3): ncu's per-SASS
# instruction counts (SourceCounters, --page source) of one fused_mma kernel in tf32tf32 and in AUTO, two shapes.
set -o pipefail
export PYTHONUNBUFFERED=1
D=$PWD/bench/results/ring-2026-11-26
W=/tmp/r3; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call3.tgz -C $W .' EXIT
T0=$(date +%s)
python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real \
  -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $? $(( $(date +%s) - T0 )) s"
cd /tmp
for shape in "1073 618 1831" "548 135 1000"; do
  for mode in tf32tf32 auto; do
    tag="$mode-${shape// /x}"
    timeout 100 ncu --clock-control none --kernel-name regex:fused_mma --launch-skip 2 --launch-count 1 \
      --section SourceCounters --section InstructionStats --page source --print-source sass --csv \
      python3 $D/../calibrated-2026-11-26/guard_probe.py $mode $shape > $W/src-$tag.csv 2> $W/src-$tag.err
    echo "$tag exit $? $(wc -l < $W/src-$tag.csv) lines $(( $(date +%s) - T0 )) s"; head -c 600 $W/src-$tag.csv | head -3
  done
done
gzip -f $W/*.csv
