#!/usr/bin/env bash
# Device call 8 (README.md here): the committed tree (c342619) against main (09acba0, carried as .baseline) on the
# held-out sample (seed 26), twice for each tree, main first in round 1 and second in round 2; the stream-tile
# routes by C's alignment (stream_class.py).
set -o pipefail
export PYTHONUNBUFFERED=1
D=$PWD/bench/results/wide-side-2026-11-26
W=/tmp/w8; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call8.tgz -C $W --exclude="*.png" --exclude="results.json.gz" .' EXIT
T0=$(date +%s)
BUILD="python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real"
$BUILD --target /tmp/base-site -C build-dir=/tmp/bbase .baseline > $W/build-base.txt 2>&1 &
$BUILD -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"; wait; echo "builds done $(( $(date +%s) - T0 )) s"
run() {  # tree out
  if [ $1 = base ]; then PP=/tmp/base-site; else PP=; fi
  PYTHONPATH=$PP timeout 75 python3 -m bench.random --seed 26 --out $W/$2 --max-minutes 1.1 --no-plots > $W/$2.log 2>&1
  echo "$2 exit $? $(( $(date +%s) - T0 )) s"; grep -E "^\| (tf32tf32|halfhalf|auto) \| (1018|200) " $W/$2/table.md
}
run base base1; run new random1; run new random2; run base base2
for r in 1 2; do
  python3 $D/../cluster-2026-11-26/compare.py $W/random$r/results.json $W/base$r/results.json > $W/compare$r.txt
  gzip -f $W/random$r/results.json $W/base$r/results.json
  python3 $D/stream_class.py $W/random$r/results.json.gz $W/base$r/results.json.gz > $W/stream_class$r.txt
done
grep -E "^(gemm|batched)|routes changed" $W/compare1.txt $W/compare2.txt | head -16
cat $W/stream_class1.txt $W/stream_class2.txt
gzip -f $W/*.log
