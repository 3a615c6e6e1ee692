#!/usr/bin/env bash
# Device call 1 (README.md here): the tree (batches on simt's stream and strip tiles priced by rows of their own; the
# strip tile offered beside the dot tile at k <= 32) against the commit before it (.baseline, carried): changed_ab.py
# on changed.txt (every batch of seeds 26 and 34-37 whose plan differs, tf32tf32: at k <= 32 the corrected modes
# share their FP32 routes), base, new, new, base, each round behind a GPU sleep; then a calibration of the short-k
# routes on batches (seeds 38-39, k <= 32, simt's three tiles, fused_mma's FP32 form and GEMV pinned); the simt,
# GEMV, FP32-form and planner GPU tests on the tree.
set -o pipefail
export PYTHONUNBUFFERED=1
D=$PWD/bench/results/batch-strips-2026-11-28
AB=$PWD/bench/results/auto-price-2026-11-28
W=/tmp/s1; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call1.tgz -C $W .' EXIT
T0=$(date +%s)
tar xzf .device/baseline.tgz  # .baseline
PIP="python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real"
$PIP -C build-dir=/tmp/b1-base --target /tmp/site-base .baseline > $W/build-base.txt 2>&1 &
PB=$!
$PIP -C build-dir=/tmp/b1-new . > $W/build-new.txt 2>&1; echo "build new exit $? $(( $(date +%s) - T0 )) s"
wait $PB; echo "build base exit $? $(( $(date +%s) - T0 )) s"
for f in $W/build-*.txt; do tail -3 $f > $f.t && mv $f.t $f; done
site() { case $1 in base*) echo /tmp/site-base;; *) echo "";; esac; }
for run in base1 new1 new2 base2; do
  (cd $AB && PYTHONPATH=$(site $run) timeout 100 python3 changed_ab.py $D/changed.txt $W/changed-$run.jsonl > $W/changed-$run.txt 2>&1)
  echo "ab $run exit $? $(( $(date +%s) - T0 )) s"
done
python3 $AB/summarize.py ab $W/changed-{base1,new1,new2,base2}.jsonl > $W/new-over-base.md; tail -1 $W/new-over-base.md
export PYTHONPATH=$PWD
for s in 38 39; do
  timeout 70 python3 -m bench.random --seed $s --count 0 --max-k 32 --modes tf32tf32 --max-minutes 1.0 --no-plots \
    --families simt:stream,simt:strips,simt:dot,fused_mma:32/fp32,gemv --out $W/cal-$s > $W/cal-$s.log 2>&1
  echo "cal $s exit $? $(( $(date +%s) - T0 )) s"; tail -1 $W/cal-$s.log | cut -c1-200
done
gzip -f $W/cal-*/results.json $W/*.log
LEFT=$(( 560 - ($(date +%s) - T0) ))
TESTS="tests/test_simt_strips_gpu.py tests/test_simt_dot_gpu.py tests/test_simt_stream_gpu.py tests/test_planner_gpu.py tests/test_gemv_gpu.py tests/test_fused_mma_fp32_gpu.py tests/test_c_batched_gpu.py tests/test_planner.py"
timeout $LEFT python3 -m pytest -q -p no:cacheprovider -rfE -n 8 $TESTS > $W/pytest.txt 2>&1
echo "pytest exit $? $(( $(date +%s) - T0 )) s"; grep -E "^FAILED|^ERROR| passed| failed" $W/pytest.txt | cut -c1-250 | head -12
