#!/usr/bin/env bash
# Device call 2 (README.md here): the tree with the batched stream and strip rows refitted on call 1's calibration and
# shortk-2026-11-27's (the dot row kept) against the commit before it (.baseline): changed_ab.py on changed2.txt (every
# batch of seeds 26 and 34-37 whose plan differs, tf32tf32), base, new, new, base; every GPU test on the tree; the
# random sweep (seed 26) on the tree in the time left.
set -o pipefail
export PYTHONUNBUFFERED=1
D=$PWD/bench/results/batch-strips-2026-11-28
AB=$PWD/bench/results/auto-price-2026-11-28
W=/tmp/s2; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call2.tgz -C $W .' EXIT
T0=$(date +%s)
tar xzf .device/baseline.tgz  # .baseline
PIP="python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real"
$PIP -C build-dir=/tmp/b2-base --target /tmp/site-base .baseline > $W/build-base.txt 2>&1 &
PB=$!
$PIP -C build-dir=/tmp/b2-new . > $W/build-new.txt 2>&1; echo "build new exit $? $(( $(date +%s) - T0 )) s"
wait $PB; echo "build base exit $? $(( $(date +%s) - T0 )) s"
for f in $W/build-*.txt; do tail -3 $f > $f.t && mv $f.t $f; done
site() { case $1 in base*) echo /tmp/site-base;; *) echo "";; esac; }
for run in base1 new1 new2 base2; do
  (cd $AB && PYTHONPATH=$(site $run) timeout 100 python3 changed_ab.py $D/changed2.txt $W/changed-$run.jsonl > $W/changed-$run.txt 2>&1)
  echo "ab $run exit $? $(( $(date +%s) - T0 )) s"
done
python3 $AB/summarize.py ab $W/changed-{base1,new1,new2,base2}.jsonl > $W/new-over-base.md; tail -1 $W/new-over-base.md
export PYTHONPATH=$PWD
timeout 240 python3 -m pytest -q -p no:cacheprovider -rfE -n 8 tests > $W/pytest.txt 2>&1
echo "pytest exit $? $(( $(date +%s) - T0 )) s"; grep -E "^FAILED|^ERROR| passed| failed" $W/pytest.txt | cut -c1-250 | head -12
LEFT=$(( 585 - ($(date +%s) - T0) ))
timeout $LEFT python3 -m bench.random --seed 26 --max-minutes 1.2 --out $W/random-26 --no-plots > $W/random-26.log 2>&1
echo "random exit $? $(( $(date +%s) - T0 )) s"; grep -E "^\| (tf32tf32|halfhalf|auto) \| [0-9]+ \| " $W/random-26/table.md | cut -c1-60
gzip -f $W/random-26/results.json $W/*.log
