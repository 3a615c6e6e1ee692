#!/usr/bin/env bash
# Device call 1 (README.md here): GEMV's loaded along-k row fitted on its own (batch-rows-2026-11-27 call 10's thin
# calibration; this tree) against 34cd452 (.baseline, the loaded row holding the staged row's coefficients): the thin
# products (min(m, n) <= 4) of seed 26 in the order base, new, new, base and of seed 33 (no fit has seen it), base then
# new; then every GPU test on this tree.
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
for r in base:1 new:1 new:2 base:2 base:t new:t; do
  v=${r%:*}; i=${r#*:}; PP=; [ $v = base ] && PP=/tmp/site-base
  if [ $i = t ]; then ARGS="--seed 33 --max-width 4 --max-minutes 0.5"; else ARGS="--seed 26 --max-width 4 --max-minutes 0.5"; fi
  PYTHONPATH=$PP timeout 70 python3 -m bench.random $ARGS --out $W/random-$v$i --no-plots > $W/random-$v$i.log 2>&1
  echo "random $v$i exit $? $(( $(date +%s) - T0 )) s"; grep -E "^\| (tf32tf32|halfhalf|auto) \| [0-9]+ \| " $W/random-$v$i/table.md | cut -c1-60
done
for p in new1:base1 new2:base2 newt:baset; do
  python3 $H/routes_ab.py $W/random-${p%:*}/results.json $W/random-${p#*:}/results.json > $W/routes_ab-${p/:/-}.txt 2>&1
  echo "== ${p}"; grep -E "^(gemm|batched)|routes changed" $W/routes_ab-${p/:/-}.txt | cut -c1-160
done
gzip -f $W/random-*/results.json $W/*.log
timeout 260 python3 -m pytest -q -p no:cacheprovider -rfEs -n 8 tests > $W/tests.txt 2>&1
echo "tests exit $? $(( $(date +%s) - T0 )) s"; tail -n 1 $W/tests.txt; grep -E "^FAILED|^ERROR" $W/tests.txt | head -8
grep -B5 -A40 "^_____" $W/tests.txt | head -60
