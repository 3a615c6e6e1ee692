#!/usr/bin/env bash
# Device call 4 (README.md here): simt's stream tile storing columns that start off a 16-byte boundary as quads
# shifted between lanes (float4 stores, as aligned columns take), against main (09acba0, carried as .baseline): the
# stream tile's GPU tests; stream_ab.py on both trees twice, alternating; the held-out sample (seed 26) twice for
# each tree, main first in round 1 and second in round 2.
set -o pipefail
export PYTHONUNBUFFERED=1
D=$PWD/bench/results/wide-side-2026-11-26
R=$PWD/bench/results/ring-2026-11-26
W=/tmp/w4; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call4.tgz -C $W --exclude="*.png" .' EXIT
T0=$(date +%s)
BUILD="python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real"
$BUILD --target /tmp/base-site -C build-dir=/tmp/bbase .baseline > $W/build-base.txt 2>&1 &
$BUILD -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"; wait; echo "builds done $(( $(date +%s) - T0 )) s"
timeout 150 python3 -m pytest -q -p no:cacheprovider -rfEs -n 8 tests/test_simt_stream_gpu.py tests/test_simt_strips_gpu.py \
  tests/test_planner_gpu.py > $W/tests.txt 2>&1
echo "tests exit $? $(( $(date +%s) - T0 )) s"; tail -n 1 $W/tests.txt; grep -E "^FAILED|^ERROR" $W/tests.txt | head -8
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
run base base1; run new random1; run new random2; run base base2
for r in 1 2; do
  python3 $R/../cluster-2026-11-26/compare.py $W/random$r/results.json $W/base$r/results.json > $W/compare$r.txt
done
grep -E "^(gemm|batched)|routes changed|simt" $W/compare1.txt $W/compare2.txt | head -40
gzip -f $W/random*/results.json $W/base*/results.json $W/*.log
