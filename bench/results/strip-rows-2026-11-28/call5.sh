#!/usr/bin/env bash
# Device call 5 (strip_loop.patch applied to the tree; ran in the thirty-second session, README.md): the strip tile with three loops chosen once (float4 loads of A; a whole strip, four pointers stepped along k, no guard a load; a strip cut by m), against the
# commit before it (.baseline, carried): changed_ab.py (auto-price-2026-11-28) on cases-26.txt and cases-34.txt (every case of seeds 26 and 34
# the planner puts on the strip tile; the plans are the same in both builds), base, new, new, base, each round behind
# a GPU sleep; then the strip tile's GPU tests with the accuracy suite beside them (not run since batch-strips call 4).
set -o pipefail
export PYTHONUNBUFFERED=1
D=$PWD/bench/results/strip-rows-2026-11-28
AB=$PWD/bench/results/auto-price-2026-11-28
W=/tmp/s5; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call5.tgz -C $W .' EXIT
T0=$(date +%s)
tar xzf .device/baseline.tgz  # .baseline
PIP="python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real"
# A fresh machine builds both.
$PIP -C build-dir=/tmp/b5-base --target /tmp/site-base .baseline > $W/build-base.txt 2>&1 &
PB=$!
$PIP -C build-dir=/tmp/b5-new . > $W/build-new.txt 2>&1; echo "build new exit $? $(( $(date +%s) - T0 )) s"
wait $PB; echo "build base exit $? $(( $(date +%s) - T0 )) s"
for f in $W/build-*.txt; do tail -3 $f > $f.t && mv $f.t $f; done
cat $D/cases-26.txt $D/cases-34.txt > $W/cases.txt
site() { case $1 in base*) echo /tmp/site-base;; *) echo "";; esac; }
for run in base1 new1 new2 base2; do
  (cd $AB && PYTHONPATH=$(site $run) timeout 130 python3 changed_ab.py $W/cases.txt $W/ab-$run.jsonl > $W/ab-$run.txt 2>&1)
  echo "ab $run exit $? $(( $(date +%s) - T0 )) s $(wc -l < $W/ab-$run.jsonl)"
done
python3 $AB/summarize.py ab $W/ab-{base1,new1,new2,base2}.jsonl > $W/new-over-base.md; tail -1 $W/new-over-base.md
gzip -f $W/*.jsonl
export PYTHONPATH=$PWD
LEFT=$(( 480 - ($(date +%s) - T0) ))
TESTS="tests/test_simt_strips_gpu.py tests/test_simt_stream_gpu.py tests/test_c_batched_gpu.py"
timeout $LEFT python3 -m bench --sections accuracy --no-xla --max-minutes 2 --no-plots --out $W/accuracy > $W/accuracy.md 2> $W/accuracy.log &
timeout $LEFT python3 -m pytest -q -p no:cacheprovider -rfE -n 8 $TESTS > $W/pytest.txt 2>&1
echo "pytest exit $? $(( $(date +%s) - T0 )) s"; grep -E "^FAILED|^ERROR| passed| failed" $W/pytest.txt | cut -c1-250 | head -12
wait; echo "accuracy done $(( $(date +%s) - T0 )) s"; grep -A4 "^## Flags" $W/accuracy.md | head -5; gzip -f $W/accuracy.log
M=gpu__time_duration.sum,smsp__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread
for s in "9777 15 16 286" "2877 358 4 31"; do
  f=ncu-$(echo $s | tr ' ' x).csv
  (cd $AB && timeout 40 ncu --clock-control none --metrics $M --profile-from-start off --csv --page details \
    python3 one_call.py $s tf32tf32 > $W/$f 2> $W/$f.err); echo "ncu $s exit $? $(( $(date +%s) - T0 )) s"
done
