#!/usr/bin/env bash
# Device call 2 (README.md here): the refitted rows (n: the narrow tiles' N = 64 rows, fused_mma/tf32tf32 and
# fused_mma32/halfhalf from call 1) against main (base: 3a4cdca, .baseline) on the held-out sample (seed 26) in both
# orders (base, n, then n, base), compared on ecgemm's own times (routes_ab.py); then every GPU test on n.
set -o pipefail
export PYTHONUNBUFFERED=1
H=$PWD/bench/results/chain-waves-2026-11-27
W=/tmp/n2; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call2.tgz -C $W --exclude="*.png" .' EXIT
T0=$(date +%s)
BUILD="python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real"
$BUILD --target /tmp/site-base -C build-dir=/tmp/bbase .baseline > $W/build-base.txt 2>&1 &
$BUILD --target /tmp/site-n -C build-dir=/tmp/bn . > $W/build-n.txt 2>&1
echo "build exit $?"; wait; echo "builds done $(( $(date +%s) - T0 )) s"; grep -h "Successfully installed" $W/build*.txt | wc -l
for f in $W/build-*.txt; do tail -3 $f > $f.t && mv $f.t $f; done
for r in base:1 n:1 n:2 base:2; do
  v=${r%:*}; i=${r#*:}
  PYTHONPATH=/tmp/site-$v timeout 95 python3 -m bench.random --seed 26 --out $W/random-$v$i --max-minutes 0.9 --no-plots > $W/random-$v$i.log 2>&1
  echo "random $v$i exit $? $(( $(date +%s) - T0 )) s"; grep -E "^\| (tf32tf32|halfhalf|auto) \| (1018|200) " $W/random-$v$i/table.md | cut -c1-70
done
for i in 1 2; do
  python3 $H/routes_ab.py $W/random-n$i/results.json $W/random-base$i/results.json > $W/routes_ab$i.txt 2>&1
  grep -v "^      " $W/routes_ab$i.txt | cut -c1-160 | head -24
done
python3 bench/results/narrow-tiles-2026-11-26/residuals.py $W/random-n2/results.json
gzip -f $W/random-*/results.json $W/*.log
LEFT=$(( 585 - ($(date +%s) - T0) )); echo "tests get $LEFT s"
PYTHONPATH=/tmp/site-n timeout $LEFT python3 -m pytest -q -n 8 -p no:cacheprovider tests > $W/tests.txt 2>&1
echo "tests exit $? $(( $(date +%s) - T0 )) s"; tail -3 $W/tests.txt
