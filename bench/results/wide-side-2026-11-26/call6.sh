#!/usr/bin/env bash
# Device call 6 (README.md here): call 5's structure (a kernel of its own where a column of C can start off a
# 16-byte boundary, main's kernel elsewhere) with call 4's shuffles (all four rows shuffled, then picked), against
# main (09acba0, carried as .baseline): the stream, strip, planner and batched GPU tests, memcheck over the shifted
# ones; stream_ab.py (now also k = 2 .. 16) on both trees twice, alternating; the held-out sample once a tree.
set -o pipefail
export PYTHONUNBUFFERED=1
D=$PWD/bench/results/wide-side-2026-11-26
R=$PWD/bench/results/ring-2026-11-26
W=/tmp/w6; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call6.tgz -C $W --exclude="*.png" .' EXIT
T0=$(date +%s)
BUILD="python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real"
$BUILD --target /tmp/base-site -C build-dir=/tmp/bbase .baseline > $W/build-base.txt 2>&1 &
$BUILD -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"; wait; echo "builds done $(( $(date +%s) - T0 )) s"
timeout 150 python3 -m pytest -q -p no:cacheprovider -rfEs -n 8 tests/test_simt_stream_gpu.py tests/test_simt_strips_gpu.py \
  tests/test_planner_gpu.py tests/test_c_batched_gpu.py > $W/tests.txt 2>&1
echo "tests exit $? $(( $(date +%s) - T0 )) s"; tail -n 1 $W/tests.txt; grep -E "^FAILED|^ERROR" $W/tests.txt | head -8
timeout 100 compute-sanitizer --tool memcheck --error-exitcode 3 --print-limit 20 python3 -m pytest -q -p no:cacheprovider \
  tests/test_simt_stream_gpu.py -k "shifted and (130 or 1001) and N-T" > $W/memcheck.txt 2>&1
echo "memcheck exit $? $(( $(date +%s) - T0 )) s"; tail -n 1 $W/memcheck.txt; grep "ERROR SUMMARY" $W/memcheck.txt | sort | uniq -c
for r in 1 2; do
  for tree in base new; do
    PP=; [ $tree = base ] && PP=/tmp/base-site
    (cd /tmp && PYTHONPATH=$PP timeout 60 python3 $D/stream_ab.py $W/stream-$tree$r.jsonl > $W/stream-$tree$r.txt 2>&1)
    echo "stream $tree$r exit $? $(( $(date +%s) - T0 )) s"
  done
done
paste -d'|' $W/stream-base1.txt $W/stream-new1.txt $W/stream-new2.txt $W/stream-base2.txt | sed 's/|/ || /g' | cut -c1-400
run() {  # tree out
  if [ $1 = base ]; then PP=/tmp/base-site; else PP=; fi
  PYTHONPATH=$PP timeout 75 python3 -m bench.random --seed 26 --out $W/$2 --max-minutes 1.1 --no-plots > $W/$2.log 2>&1
  echo "$2 exit $? $(( $(date +%s) - T0 )) s"; grep -E "^\| (tf32tf32|halfhalf|auto) \| (1018|200) " $W/$2/table.md
}
run base base1; run new random1
for r in 1; do
  python3 $R/../cluster-2026-11-26/compare.py $W/random$r/results.json $W/base$r/results.json > $W/compare$r.txt
done
grep -E "^(gemm|batched)|routes changed|simt" $W/compare1.txt | head -40
gzip -f $W/random*/results.json $W/base*/results.json $W/*.log
