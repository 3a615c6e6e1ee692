#!/usr/bin/env bash
# Device call 1 (README.md here): fused_mma's 32-wide tf32tf32 tile priced by a row for 2-D products (refitted on
# narrow64 call 1's 2-D points) and a row for batches (the row as it was), against main (dae8e9e, .baseline) on the
# held-out sample (seed 26), order base, new, new, base; routes_ab.py on each pair; then the planner, batched and
# fused_mma GPU tests on the new tree.
set -o pipefail
export PYTHONUNBUFFERED=1
H=$PWD/bench/results/chain-waves-2026-11-27
W=/tmp/r1; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call1.tgz -C $W --exclude="*.png" .' EXIT
T0=$(date +%s)
BUILD="python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real"
$BUILD --target /tmp/site-base -C build-dir=/tmp/bbase .baseline > $W/build-base.txt 2>&1 &
$BUILD -C build-dir=/tmp/bnew . > $W/build-new.txt 2>&1
echo "build exit $?"; wait; echo "builds done $(( $(date +%s) - T0 )) s"; grep -h "Successfully installed" $W/build*.txt | wc -l
for f in $W/build-*.txt; do tail -3 $f > $f.t && mv $f.t $f; done
for r in base:1 new:1 new:2 base:2; do
  v=${r%:*}; i=${r#*:}; PP=; [ $v = base ] && PP=/tmp/site-base
  PYTHONPATH=$PP timeout 95 python3 -m bench.random --seed 26 --out $W/random-$v$i --max-minutes 0.9 --no-plots > $W/random-$v$i.log 2>&1
  echo "random $v$i exit $? $(( $(date +%s) - T0 )) s"; grep -E "^\| (tf32tf32|halfhalf|auto) \| (1018|200) " $W/random-$v$i/table.md | cut -c1-60
done
for p in new1:base1 new2:base2; do
  python3 $H/routes_ab.py $W/random-${p%:*}/results.json $W/random-${p#*:}/results.json > $W/routes_ab-${p/:/-}.txt 2>&1
  echo "== ${p}"; grep -E "^(gemm|batched)|routes changed" $W/routes_ab-${p/:/-}.txt | cut -c1-160
done
python3 bench/results/narrow-tiles-2026-11-26/residuals.py $W/random-new2/results.json
gzip -f $W/random-*/results.json $W/*.log
timeout 150 python3 -m pytest -q -p no:cacheprovider -rfEs -n 8 tests/test_planner_gpu.py tests/test_c_batched_gpu.py \
  tests/test_fused_mma_gpu.py tests/test_streams_gpu.py > $W/tests.txt 2>&1
echo "tests exit $? $(( $(date +%s) - T0 )) s"; tail -n 1 $W/tests.txt; grep -E "^FAILED|^ERROR" $W/tests.txt | head -8
