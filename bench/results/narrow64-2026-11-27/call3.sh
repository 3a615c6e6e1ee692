#!/usr/bin/env bash
# Device call 3 (README.md here): two ways of refitting fused_mma's rows, beside the narrow tiles' N = 64 rows, against
# main (base: 3a4cdca, .baseline) on the held-out sample (seed 26): d, fused_mma/tf32tf32 alone (call 2's tf32tf32
# rows: its 64 <-> 32 choices lost on five small products); b, fused_mma/tf32tf32 and fused_mma32/tf32tf32 together
# (the family's two tf32tf32 tiles from one run). Order base, d, b, b, d, base; routes_ab.py on each pair.
set -o pipefail
export PYTHONUNBUFFERED=1
H=$PWD/bench/results/chain-waves-2026-11-27
W=/tmp/n3; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call3.tgz -C $W --exclude="*.png" .' EXIT
T0=$(date +%s)
BUILD="python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real"
$BUILD --target /tmp/site-base -C build-dir=/tmp/bbase .baseline > $W/build-base.txt 2>&1 &
$BUILD --target /tmp/site-d -C build-dir=/tmp/bd .variant > $W/build-d.txt 2>&1 &
$BUILD --target /tmp/site-b -C build-dir=/tmp/bb . > $W/build-b.txt 2>&1
echo "build exit $?"; wait; echo "builds done $(( $(date +%s) - T0 )) s"; grep -h "Successfully installed" $W/build*.txt | wc -l
for f in $W/build-*.txt; do tail -3 $f > $f.t && mv $f.t $f; done
for r in base:1 d:1 b:1 b:2 d:2 base:2; do
  v=${r%:*}; i=${r#*:}
  PYTHONPATH=/tmp/site-$v timeout 95 python3 -m bench.random --seed 26 --out $W/random-$v$i --max-minutes 0.9 --no-plots > $W/random-$v$i.log 2>&1
  echo "random $v$i exit $? $(( $(date +%s) - T0 )) s"; grep -E "^\| (tf32tf32|halfhalf|auto) \| (1018|200) " $W/random-$v$i/table.md | cut -c1-60
done
for p in d1:base1 d2:base2 b1:base1 b2:base2 b1:d1 b2:d2; do
  python3 $H/routes_ab.py $W/random-${p%:*}/results.json $W/random-${p#*:}/results.json > $W/routes_ab-${p/:/-}.txt 2>&1
  echo "== ${p}"; grep -E "^(gemm|batched)|routes changed" $W/routes_ab-${p/:/-}.txt | cut -c1-120
done
for v in d2 b2; do python3 bench/results/narrow-tiles-2026-11-26/residuals.py $W/random-$v/results.json; done
gzip -f $W/random-*/results.json $W/*.log
