#!/usr/bin/env bash
# Device call 7 (README.md here): store_lanes (rows lane + 32i, a warp's 4-byte stores 128 contiguous bytes) where C's
# columns start off a 16-byte boundary at k > 4 (this tree), and at every k (call7_lanes_every_k.patch, "all"),
# against 7782dd3 (.baseline, carried): store_ab.py with the stream tile pinned (base, new, all, all, new, base), ncu
# at 3950 x 8 x 3687 on the new tile, then the GPU tests that run the stream tile on both.
set -o pipefail
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
D=bench/results/shortk-2026-11-27
W=/tmp/k7; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call7.tgz -C $W .' EXIT
T0=$(date +%s)
tar xzf .device/baseline.tgz  # .baseline
rm -rf /tmp/all && mkdir /tmp/all && tar c --exclude=./bench/results --exclude=./.device --exclude=./.baseline . | tar x -C /tmp/all
patch -d /tmp/all -p1 < $D/call7_lanes_every_k.patch > $W/patch.txt || echo "patch failed"
PIP="python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real"
$PIP -C build-dir=/tmp/b7-base --target /tmp/site-base .baseline > $W/build-base.txt 2>&1 &
PB=$!
$PIP -C build-dir=/tmp/b7-all --target /tmp/site-all /tmp/all > $W/build-all.txt 2>&1 &
PA=$!
$PIP -C build-dir=/tmp/b7-new . > $W/build-new.txt 2>&1; echo "build new exit $? $(( $(date +%s) - T0 )) s"
wait $PB; echo "build base exit $? $(( $(date +%s) - T0 )) s"
wait $PA; echo "build all exit $? $(( $(date +%s) - T0 )) s"
site() { case $1 in base*) echo /tmp/site-base:$PWD;; all*) echo /tmp/site-all:$PWD;; *) echo $PWD;; esac; }
for run in base1 new1 all1 all2 new2 base2; do
  PYTHONPATH=$(site $run) timeout 70 python3 $D/store_ab.py $W/lanes-$run.jsonl > /dev/null 2> $W/lanes-$run.log
  echo "store_ab $run exit $? $(( $(date +%s) - T0 )) s"
done
python3 $D/summarize_store.py $W/lanes-{base1,new1,new2,base2}.jsonl > $OUT/lanes.md; tail -4 $OUT/lanes.md
python3 $D/summarize_store.py $W/lanes-{base1,all1,all2,base2}.jsonl > $OUT/lanes-every-k.md; tail -4 $OUT/lanes-every-k.md
M=lts__t_sectors_op_write.sum,lts__t_requests_op_write.sum,dram__bytes_write.sum,dram__bytes_read.sum,smsp__inst_executed_op_global_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,smsp__inst_executed.sum,gpu__time_duration.sum,lts__throughput.avg.pct_of_peak_sustained_elapsed
timeout 60 ncu --clock-control none --metrics $M --profile-from-start off --launch-skip 1 --launch-count 1 --csv \
  --page details python3 bench/results/sweep-2026-11-27/lab_k32.py 3950,8,3687 NN stream > $OUT/ncu-lanes-3687.csv 2>> $W/ncu.log
echo "ncu exit $? $(( $(date +%s) - T0 )) s"
TESTS="tests/test_simt_stream_gpu.py tests/test_simt_strips_gpu.py tests/test_planner_gpu.py tests/test_c_abi_gpu.py tests/test_c_batched_gpu.py tests/test_streams_gpu.py"
timeout 150 python3 -m pytest -q -p no:cacheprovider -rfE -n 8 $TESTS > $W/pytest-new.txt 2>&1
echo "pytest new exit $? $(( $(date +%s) - T0 )) s"; grep -E "^FAILED|^ERROR| passed| failed" $W/pytest-new.txt | cut -c1-250 | head -12
PYTHONPATH=/tmp/site-all:$PWD timeout 120 python3 -m pytest -q -p no:cacheprovider -rfE -n 8 tests/test_simt_stream_gpu.py > $W/pytest-all.txt 2>&1
echo "pytest all exit $? $(( $(date +%s) - T0 )) s"; grep -E "^FAILED|^ERROR| passed| failed" $W/pytest-all.txt | cut -c1-250 | head -12
echo "done $(( $(date +%s) - T0 )) s"
