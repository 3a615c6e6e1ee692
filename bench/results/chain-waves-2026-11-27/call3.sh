#!/usr/bin/env bash
# Device call 3 (README.md here): a DRAM floor under the cost model's estimates (s) against the tree of call 2
# (e17fc05, .baseline): the held-out sample (seed 26), main first, compared on ecgemm's own times (routes_ab.py);
# family_probe.py on (s); every GPU test on (s) with the accuracy suite beside them.
set -o pipefail
export PYTHONUNBUFFERED=1
H=$PWD/bench/results/chain-waves-2026-11-27
N=$PWD/bench/results/narrow-tiles-2026-11-26
W=/tmp/c3; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call3.tgz -C $W --exclude="*.png" .' EXIT
T0=$(date +%s)
BUILD="python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real"
$BUILD --target /tmp/site-base -C build-dir=/tmp/bbase .baseline > $W/build-base.txt 2>&1 &
$BUILD --target /tmp/site-s -C build-dir=/tmp/bs . > $W/build-s.txt 2>&1
echo "build exit $?"; wait; echo "builds done $(( $(date +%s) - T0 )) s"; grep -h "Successfully installed" $W/build*.txt | wc -l
for f in $W/build-*.txt; do tail -3 $f > $f.t && mv $f.t $f; done
for v in base s; do
  PYTHONPATH=/tmp/site-$v timeout 95 python3 -m bench.random --seed 26 --out $W/random-$v --max-minutes 0.9 --no-plots > $W/random-$v.log 2>&1
  echo "random $v exit $? $(( $(date +%s) - T0 )) s"; grep -E "^\| (tf32tf32|halfhalf|auto) \| (1018|200) " $W/random-$v/table.md | cut -c1-70
done
python3 $H/routes_ab.py $W/random-s/results.json $W/random-base/results.json > $W/routes_ab.txt 2>&1; grep -v "^      " $W/routes_ab.txt | cut -c1-300
python3 $N/residuals.py $W/random-s/results.json
(cd /tmp && PYTHONPATH=/tmp/site-s timeout 100 python3 $H/family_probe.py $W/probe.jsonl > $W/probe.txt 2>&1)
echo "probe exit $? $(( $(date +%s) - T0 )) s"; sed -E 's/; narrow [^|]*//' $W/probe.txt | cut -c1-230
export PYTHONPATH=/tmp/site-s
timeout 200 python3 -m bench --sections accuracy --no-xla --max-minutes 2 --no-plots --out $W/accuracy > $W/accuracy.md 2> $W/accuracy.log &
timeout 260 python3 -m pytest -q -p no:cacheprovider -rfEs -n 8 tests > $W/tests.txt 2>&1
echo "tests exit $? $(( $(date +%s) - T0 )) s"; tail -n 1 $W/tests.txt; grep -E "^FAILED|^ERROR" $W/tests.txt | head -8
wait; echo "accuracy done $(( $(date +%s) - T0 )) s"; grep -A4 "^## Flags" $W/accuracy.md | head -5
gzip -f $W/random-*/results.json $W/*.log
