#!/usr/bin/env bash
# Device call 3 (README.md here): the along-k kernel's unroll and register budget by thin width and way, as call 2's
# lab chose (this tree) against 763dbe9 (.baseline): pinned GEMV on call 2's products (gemv_ab.py with gemv_lab.py's
# list; time and C's bits) in the order base, new, new, base; the thin products (min(m, n) <= 4) of seed 26, order
# base, new, new, base, and of seed 33, base then new; the GEMV, batched and planner GPU tests; memcheck and racecheck.
set -o pipefail
export PYTHONUNBUFFERED=1
D=$PWD/bench/results/loaded-row-2026-11-27
B=$PWD/bench/results/batch-rows-2026-11-27
H=$PWD/bench/results/chain-waves-2026-11-27
W=/tmp/r3; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call3.tgz -C $W --exclude="*.png" .' EXIT
T0=$(date +%s)
BUILD="python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real"
$BUILD --target /tmp/site-base -C build-dir=/tmp/bbase .baseline > $W/build-base.txt 2>&1 &
$BUILD -C build-dir=/tmp/bnew . > $W/build-new.txt 2>&1
echo "build exit $?"; wait; echo "builds done $(( $(date +%s) - T0 )) s"; grep -h "Successfully installed" $W/build*.txt | wc -l
for f in $W/build-*.txt; do tail -3 $f > $f.t && mv $f.t $f; done
AB="import sys; sys.path[:0] = ['$B', '$D']; import gemv_ab, gemv_lab; gemv_ab.SHAPES = gemv_lab.SHAPES; gemv_ab.main(sys.argv[1])"
for r in base:1 new:1 new:2 base:2; do
  v=${r%:*}; i=${r#*:}; PP=; [ $v = base ] && PP=/tmp/site-base
  (cd /tmp && PYTHONPATH=$PP timeout 80 python3 -c "$AB" $W/gemv-$v$i.jsonl > $W/gemv-$v$i.txt 2>&1)
  echo "gemv $v$i exit $? $(( $(date +%s) - T0 )) s"
done
for p in new1:base1 new2:base2; do
  python3 $B/gemv_ab.py --compare $W/gemv-${p%:*}.jsonl $W/gemv-${p#*:}.jsonl > $W/gemv-compare-${p/:/-}.md
  echo "== $p"; cut -c1-120 $W/gemv-compare-${p/:/-}.md
done
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
timeout 150 python3 -m pytest -q -p no:cacheprovider -rfEs -n 8 tests/test_gemv_gpu.py tests/test_c_batched_gpu.py \
  tests/test_planner_gpu.py > $W/tests.txt 2>&1
echo "tests exit $? $(( $(date +%s) - T0 )) s"; tail -n 1 $W/tests.txt; grep -E "^FAILED|^ERROR" $W/tests.txt | head -8
for tool in memcheck racecheck; do
  (cd /tmp && timeout 100 compute-sanitizer --tool $tool --error-exitcode 3 --print-limit 20 python3 $B/gemv_sanitize.py > $W/$tool.txt 2>&1)
  echo "$tool exit $? $(( $(date +%s) - T0 )) s"; tail -n 2 $W/$tool.txt; grep "ERROR SUMMARY\|RACECHECK SUMMARY" $W/$tool.txt | sort | uniq -c
done
