#!/usr/bin/env bash
# Device call 2 (README.md here): store_staged (call2_store_staged.patch: the stream tile's C columns off a 16-byte boundary at k > 4, a warp's 128
# contiguous bytes a store; not kept) against
# c64980c (.baseline, carried): random-ab on the products and batches with k <= 32 of seed 26 (base, new, new, base) and
# seed 34 (held out); store_ab.py with the stream tile pinned (base, new, new, base); the stream and strip tiles' tests.
set -o pipefail
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
D=bench/results/shortk-2026-11-27
T0=$(date +%s)
tar xzf .device/baseline.tgz  # .baseline, carried as one file
S="--max-k 32 --max-minutes 0.5"
timeout 400 python3 tools/device.py random-ab --base .baseline --sample="--seed 26 $S" --held-out="--seed 34 $S" \
  --timeout 60 --build-timeout 280 > $OUT/random-ab.txt 2>&1
echo "random-ab exit $? $(( $(date +%s) - T0 )) s"
cd $OUT && tar czf ab.tgz --remove-files routes_ab-*.txt whole.txt random-*/results.json.gz random-*/table.md random-*.log build-*.txt
tar xzf ab.tgz --wildcards 'routes_ab-*' whole.txt && grep -v "^      " routes_ab-new1-base1.txt routes_ab-newt-baset.txt | cut -c1-200 | head -60; cat whole.txt; rm -f routes_ab-* whole.txt
cd - > /dev/null
for run in base1 new1 new2 base2; do
  P=$PWD; [[ $run == base* ]] && P=/tmp/random-ab/site-base:$PWD
  PYTHONPATH=$P timeout 60 python3 $D/store_ab.py $OUT/staged-$run.jsonl --back-to-back > /dev/null 2> $OUT/staged-$run.log
  echo "staged $run exit $? $(( $(date +%s) - T0 )) s"
done
python3 $D/summarize_store.py $OUT/staged-{base1,new1,new2,base2}.jsonl | tee $OUT/staged.md | tail -4
timeout 120 python3 -m pytest -q -p no:cacheprovider -rfE -n 8 tests/test_simt_stream_gpu.py tests/test_simt_strips_gpu.py \
  tests/test_planner_gpu.py > $OUT/pytest.txt 2>&1
echo "pytest exit $? $(( $(date +%s) - T0 )) s"; grep -E "^FAILED|^ERROR| passed| failed" $OUT/pytest.txt | cut -c1-250 | head -20
echo "done $(( $(date +%s) - T0 )) s"
