#!/usr/bin/env bash
# Device call 2 (README.md here): fused_mma's panel loader copying a stage wholly inside the operand without a bounds
# test a copy, against main (09acba0, carried as .baseline): the fused_mma and AUTO GPU tests; ncu instruction counts
# of the three call-1 shapes on both trees; the held-out sample (seed 26) twice for each tree, main first in round 1
# and second in round 2.
set -o pipefail
export PYTHONUNBUFFERED=1
D=$PWD/bench/results/ring-2026-11-26
W=/tmp/w2; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call2.tgz -C $W --exclude="*.png" .' EXIT
T0=$(date +%s)
BUILD="python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real"
$BUILD --target /tmp/base-site -C build-dir=/tmp/bbase .baseline > $W/build-base.txt 2>&1 &
$BUILD -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"; wait; echo "builds done $(( $(date +%s) - T0 )) s"
timeout 170 python3 -m pytest -q -p no:cacheprovider -rfEs -n 8 tests/test_fused_mma_gpu.py tests/test_fused_mma_fp32_gpu.py \
  tests/test_auto_fused_gpu.py tests/test_auto_scaled_gpu.py tests/test_auto_gpu.py tests/test_c_batched_gpu.py \
  > $W/tests.txt 2>&1
echo "tests exit $? $(( $(date +%s) - T0 )) s"; tail -n 1 $W/tests.txt; grep -E "^FAILED|^ERROR" $W/tests.txt | head -8
for tree in new base; do
  PP=; [ $tree = base ] && PP=/tmp/base-site
  for shape in "TN 46 2747 13204" "TT 2406 15001 134" "NN 11450 15568 83"; do
    tag="$tree-${shape// /-}"
    (cd /tmp && PYTHONPATH=$PP timeout 60 ncu --clock-control none --kernel-name regex:fused_mma --launch-skip 2 \
      --launch-count 1 --section SpeedOfLight --section InstructionStats --section SchedulerStats --csv --page details \
      python3 $D/thin_probe.py fused_mma $shape > $W/ncu-$tag.csv 2> $W/ncu-$tag.err)
    echo "$tag exit $? $(grep -m1 -o 'family=[^"]*' $W/ncu-$tag.csv | head -c 70)"
    grep -E '"(Duration|Executed Instructions|Issued Warp Per Scheduler)"' $W/ncu-$tag.csv | awk -F'","' '{print "   ", $(NF-2), $NF}'
  done
done
echo "ncu done $(( $(date +%s) - T0 )) s"
run() {  # tree out
  if [ $1 = base ]; then PP=/tmp/base-site; else PP=; fi
  PYTHONPATH=$PP timeout 75 python3 -m bench.random --seed 26 --out $W/$2 --max-minutes 1.1 --no-plots > $W/$2.log 2>&1
  echo "$2 exit $? $(( $(date +%s) - T0 )) s"; grep -E "^\| (tf32tf32|halfhalf|auto) \| (1018|200) " $W/$2/table.md
}
run base base1; run new random1; run new random2; run base base2
for r in 1 2; do
  python3 $D/../cluster-2026-11-26/compare.py $W/random$r/results.json $W/base$r/results.json > $W/compare$r.txt
  python3 $D/auto_over_tf32.py $W/random$r/results.json $W/base$r/results.json > $W/auto$r.txt
done
grep -E "^(gemm|batched)|routes changed|fused_mma" $W/compare1.txt $W/compare2.txt | head -40
cat $W/auto1.txt $W/auto2.txt | head -30
gzip -f $W/random*/results.json $W/base*/results.json $W/*.log
