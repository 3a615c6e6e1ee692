#!/usr/bin/env bash
# Device call 2 (README.md): halfhalf adds lo·lo in fused_mma's compensated (32-wide) tile, B's lo scaled back by 2^-11
# beside the tree before it (.baseline, carried): chain.py and promotion-2026-11-28's residuals.py in each; the fused_mma,
# AUTO and batched GPU tests on this tree; changed_ab.py (auto-price-2026-11-28) on cases-hh32.txt, base, new, new, base.
set -o pipefail
export PYTHONUNBUFFERED=1
D=$PWD/bench/results/chain-2026-11-28
P=$PWD/bench/results/promotion-2026-11-28
AB=$PWD/bench/results/auto-price-2026-11-28
W=/tmp/w2; rm -rf $W; mkdir -p $W
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
TESTS="tests/test_fused_mma_gpu.py tests/test_auto_fused_gpu.py tests/test_c_batched_gpu.py"
(PYTHONPATH=$PWD timeout 200 python3 -m pytest -q -p no:cacheprovider -rfE -n 6 $TESTS > $W/pytest.txt 2>&1; echo "pytest exit $? $(( $(date +%s) - T0 )) s") &
PT=$!
for run in base new; do
  (cd $D && PYTHONPATH=$(site $run) timeout 60 python3 chain.py $W/chain-$run.jsonl > $W/chain-$run.md 2>&1)
  echo "chain $run exit $? $(( $(date +%s) - T0 )) s"; cat $W/chain-$run.md
done
for run in base new; do
  (cd $P && PYTHONPATH=$(site $run) timeout 90 python3 residuals.py $W/res-$run.jsonl > $W/res-$run.txt 2>&1)
  echo "residuals $run exit $? $(( $(date +%s) - T0 )) s $(wc -l < $W/res-$run.jsonl)"
done
python3 $P/compare.py base=$W/res-base.jsonl new=$W/res-new.jsonl > $W/residuals.md 2>&1; head -30 $W/residuals.md
wait $PT; grep -E "^FAILED|^ERROR| passed| failed" $W/pytest.txt | cut -c1-250 | head -16
for run in base1 new1 new2 base2; do
  (cd $AB && PYTHONPATH=$(site $run) timeout 80 python3 changed_ab.py $D/cases-hh32.txt $W/ab-$run.jsonl > $W/ab-$run.txt 2>&1)
  echo "ab $run exit $? $(( $(date +%s) - T0 )) s $(wc -l < $W/ab-$run.jsonl)"
done
python3 $AB/summarize.py ab $W/ab-{base1,new1,new2,base2}.jsonl > $W/new-over-base.md; tail -1 $W/new-over-base.md
python3 $P/compare.py --ab $W/ab-{base1,new1,new2,base2}.jsonl > $W/new-by-k.md; cat $W/new-by-k.md
gzip -f $W/*.jsonl
