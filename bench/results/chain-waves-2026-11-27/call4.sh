#!/usr/bin/env bash
# Device call 4 (README.md here): call 3's two trees (s: the DRAM floor; base: e17fc05, .baseline) on the held-out
# sample (seed 26) in the other order, the tree first, for README's row: cuBLAS ran 2.3-2.8% faster in the second
# run of calls 1 and 3 on products whose route and ecgemm time did not change.
set -o pipefail
export PYTHONUNBUFFERED=1
H=$PWD/bench/results/chain-waves-2026-11-27
W=/tmp/c4; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call4.tgz -C $W --exclude="*.png" .' EXIT
T0=$(date +%s)
BUILD="python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real"
$BUILD --target /tmp/site-base -C build-dir=/tmp/bbase .baseline > $W/build-base.txt 2>&1 &
$BUILD --target /tmp/site-s -C build-dir=/tmp/bs . > $W/build-s.txt 2>&1
echo "build exit $?"; wait; echo "builds done $(( $(date +%s) - T0 )) s"; grep -h "Successfully installed" $W/build*.txt | wc -l
for f in $W/build-*.txt; do tail -3 $f > $f.t && mv $f.t $f; done
for v in s base; do
  PYTHONPATH=/tmp/site-$v timeout 95 python3 -m bench.random --seed 26 --out $W/random-$v --max-minutes 0.9 --no-plots > $W/random-$v.log 2>&1
  echo "random $v exit $? $(( $(date +%s) - T0 )) s"; grep -E "^\| (tf32tf32|halfhalf|auto) \| (1018|200) " $W/random-$v/table.md | cut -c1-70
done
python3 $H/routes_ab.py $W/random-s/results.json $W/random-base/results.json > $W/routes_ab.txt 2>&1; grep -v "^      " $W/routes_ab.txt | cut -c1-200 | head -40
python3 bench/results/narrow-tiles-2026-11-26/residuals.py $W/random-s/results.json
gzip -f $W/random-*/results.json $W/*.log
