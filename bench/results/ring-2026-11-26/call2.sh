#!/usr/bin/env bash
# Device call 2 (README.md here): fused_mma's run test (the split's largest magnitude, AUTO's wide-run guard) on the
# magnitudes' upper 16 bits, two values an instruction with sm_90's DPX (run_bits), against main (9c41db3, carried
# as .baseline): the fused_mma and AUTO GPU tests; ncu over one fused_mma kernel in tf32tf32 and AUTO on two
# held-out shapes (64 tile, 32 tile) in both trees; the held-out sample (seed 26) twice for each tree, alternating.
set -o pipefail
export PYTHONUNBUFFERED=1
D=$PWD/bench/results/ring-2026-11-26
W=/tmp/r2; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call2.tgz -C $W --exclude="*.png" .' EXIT
T0=$(date +%s)
BUILD="python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real"
$BUILD --target /tmp/base-site -C build-dir=/tmp/bbase .baseline > $W/build-base.txt 2>&1 &
$BUILD -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"; wait; echo "builds done $(( $(date +%s) - T0 )) s"
timeout 150 python3 -m pytest -q -p no:cacheprovider -rfEs -n 8 tests/test_fused_mma_gpu.py tests/test_auto_fused_gpu.py \
  tests/test_auto_scaled_gpu.py tests/test_auto_gpu.py tests/test_numerics_auto_fused.py > $W/tests.txt 2>&1
echo "tests exit $? $(( $(date +%s) - T0 )) s"; tail -n 1 $W/tests.txt; grep -E "^FAILED|^ERROR" $W/tests.txt | head -8
for tree in new base; do
  PP=; [ $tree = base ] && PP=/tmp/base-site
  for shape in "1073 618 1831" "548 135 1000"; do
    for mode in tf32tf32 auto; do
      tag="$tree-$mode-${shape// /x}"
      (cd /tmp && PYTHONPATH=$PP timeout 60 ncu --clock-control none --kernel-name regex:fused_mma --launch-skip 2 \
        --launch-count 1 --section SpeedOfLight --section InstructionStats --section Occupancy --csv --page details \
        python3 $D/../calibrated-2026-11-26/guard_probe.py $mode $shape > $W/ncu-$tag.csv 2> $W/ncu-$tag.err)
      echo "$tag exit $? $(grep -m1 -o 'family=[^"]*' $W/ncu-$tag.csv | head -c 60)"
      grep -E '"(Duration|Executed Instructions)"' $W/ncu-$tag.csv | awk -F'","' '{print "   ", $(NF-2), $NF}'
    done
  done
done
echo "ncu done $(( $(date +%s) - T0 )) s"
for r in 1 2; do
  timeout 75 python3 -m bench.random --seed 26 --out $W/random$r --max-minutes 1.1 --no-plots > $W/random$r.log 2>&1
  echo "random$r exit $? $(( $(date +%s) - T0 )) s"; grep -E "^\| (tf32tf32|halfhalf|auto) \| (1018|200) " $W/random$r/table.md
  grep -A3 "^| auto | tf32tf32 |" $W/random$r/table.md | head -2
  PYTHONPATH=/tmp/base-site timeout 75 python3 -m bench.random --seed 26 --out $W/base$r --max-minutes 1.1 \
    --no-plots > $W/base$r.log 2>&1
  echo "base$r exit $? $(( $(date +%s) - T0 )) s"; grep -E "^\| (tf32tf32|halfhalf|auto) \| (1018|200) " $W/base$r/table.md
  grep -A3 "^| auto | tf32tf32 |" $W/base$r/table.md | head -2
done
for r in 1 2; do
  python3 $D/../cluster-2026-11-26/compare.py $W/random$r/results.json $W/base$r/results.json > $W/compare$r.txt
  python3 $D/auto_over_tf32.py $W/random$r/results.json $W/base$r/results.json > $W/auto$r.txt
done
grep -E "^(gemm|batched)|routes changed" $W/compare1.txt $W/compare2.txt | head -16
cat $W/auto1.txt $W/auto2.txt
gzip -f $W/random*/results.json $W/base*/results.json $W/*.log
