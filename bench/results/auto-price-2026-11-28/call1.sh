#!/usr/bin/env bash
# Device call 1 (README.md here), the tree (s) against 837fb59 (.baseline, carried):
# - issue 26: AUTO's guard on fused_mma priced (kFusedMmaGuardCost): changed_ab.py on changed.txt (the 28 AUTO cases of
#   seeds 26 and 34 whose plan moved), base, new, new, base; probe.py on the base (every Tensor Core family pinned);
# - issue 25: store_shifted with the warp's offset found once, a runtime value (simt.cu): shortk-2026-11-27's nn_ab.py
#   and store_ab.py with the stream tile pinned, base, new, new, base; ncu at 395 x 1 x 12635; the stream-tile tests.
set -o pipefail
export PYTHONUNBUFFERED=1
D=$PWD/bench/results/auto-price-2026-11-28
K=$PWD/bench/results/shortk-2026-11-27
W=/tmp/a1; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call1.tgz -C $W .' EXIT
T0=$(date +%s)
tar xzf .device/baseline.tgz  # .baseline
PIP="python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real"
$PIP -C build-dir=/tmp/b1-base --target /tmp/site-base .baseline > $W/build-base.txt 2>&1 &
PB=$!
$PIP -C build-dir=/tmp/b1-new . > $W/build-new.txt 2>&1; echo "build new exit $? $(( $(date +%s) - T0 )) s"
wait $PB; echo "build base exit $? $(( $(date +%s) - T0 )) s"
for f in $W/build-*.txt; do tail -3 $f > $f.t && mv $f.t $f; done
site() { case $1 in base*) echo /tmp/site-base:$PWD;; *) echo $PWD;; esac; }
for run in base1 new1 new2 base2; do
  PYTHONPATH=$(site $run) timeout 40 python3 $K/nn_ab.py $W/nn-$run.jsonl > /dev/null 2> $W/nn-$run.log
  PYTHONPATH=$(site $run) timeout 40 python3 $K/store_ab.py $W/store-$run.jsonl > /dev/null 2> $W/store-$run.log
  (cd $D && PYTHONPATH=$(site $run) timeout 60 python3 changed_ab.py changed.txt $W/changed-$run.jsonl > $W/changed-$run.txt 2>&1)
  echo "ab $run exit $? $(( $(date +%s) - T0 )) s"
done
python3 $K/summarize_store.py $W/nn-{base1,new1,new2,base2}.jsonl > $W/runtime-nn.md; tail -3 $W/runtime-nn.md
python3 $K/summarize_store.py $W/store-{base1,new1,new2,base2}.jsonl > $W/runtime-store.md; tail -3 $W/runtime-store.md
python3 $D/summarize.py ab $W/changed-{base1,new1,new2,base2}.jsonl > $W/changed.md; tail -2 $W/changed.md
(cd $D && PYTHONPATH=/tmp/site-base:$PWD timeout 150 python3 probe.py $W/probe.jsonl > $W/probe.txt 2>&1)
echo "probe exit $? $(( $(date +%s) - T0 )) s"; python3 $D/summarize.py probe $W/probe.jsonl > $W/probe.md
M=smsp__inst_executed.sum,smsp__inst_executed_op_global_st.sum,gpu__time_duration.sum,smsp__average_warps_issue_stalled_no_instruction_per_issue_active.ratio,launch__registers_per_thread
for v in base new; do
  PYTHONPATH=$(site $v) timeout 30 ncu --clock-control none --metrics $M --profile-from-start off --launch-skip 1 --launch-count 1 --csv \
    --page details python3 bench/results/sweep-2026-11-27/lab_k32.py 395,1,12635 NN stream > $W/ncu-$v-12635.csv 2> /dev/null
done
echo "ncu done $(( $(date +%s) - T0 )) s"
LEFT=$(( 560 - ($(date +%s) - T0) ))
TESTS="tests/test_simt_stream_gpu.py tests/test_planner_gpu.py tests/test_c_abi_gpu.py tests/test_streams_gpu.py"
PYTHONPATH=$PWD timeout $LEFT python3 -m pytest -q -p no:cacheprovider -rfE -n 8 $TESTS > $W/pytest.txt 2>&1
echo "pytest exit $? $(( $(date +%s) - T0 )) s"; grep -E "^FAILED|^ERROR| passed| failed" $W/pytest.txt | cut -c1-250 | head -12
