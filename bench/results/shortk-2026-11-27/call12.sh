#!/usr/bin/env bash
# Device call 12 (README.md here): store_shifted_by (k <= 4, columns off 16 bytes, on every tile, the last along m too:
# the warp's offset a constant, no selects, lane 0's and lane 31's edge rows in the same stores) against f0b6164
# (.baseline, carried): nn_ab.py and store_ab.py, the stream tile pinned (base, new, new, base); ncu at
# 395 x 1 x 12635 on the new tile; the GPU tests that run the stream tile.
set -o pipefail
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
D=bench/results/shortk-2026-11-27
W=/tmp/k12; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call12.tgz -C $W .' EXIT
T0=$(date +%s)
tar xzf .device/baseline.tgz  # .baseline
PIP="python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real"
$PIP -C build-dir=/tmp/b12-base --target /tmp/site-base .baseline > $W/build-base.txt 2>&1 &
PB=$!
$PIP -C build-dir=/tmp/b12-new . > $W/build-new.txt 2>&1; echo "build new exit $? $(( $(date +%s) - T0 )) s"
wait $PB; echo "build base exit $? $(( $(date +%s) - T0 )) s"
for run in base1 new1 new2 base2; do
  P=$PWD; [[ $run == base* ]] && P=/tmp/site-base:$PWD
  PYTHONPATH=$P timeout 70 python3 $D/nn_ab.py $W/nn-$run.jsonl > /dev/null 2> $W/nn-$run.log
  PYTHONPATH=$P timeout 70 python3 $D/store_ab.py $W/all-$run.jsonl > /dev/null 2> $W/all-$run.log
  echo "ab $run exit $? $(( $(date +%s) - T0 )) s"
done
python3 $D/summarize_store.py $W/nn-{base1,new1,new2,base2}.jsonl > $OUT/by-nn.md; tail -4 $OUT/by-nn.md
python3 $D/summarize_store.py $W/all-{base1,new1,new2,base2}.jsonl > $OUT/by-store-ab.md; tail -4 $OUT/by-store-ab.md
M=lts__t_sectors_op_write.sum,lts__t_requests_op_write.sum,smsp__inst_executed_op_global_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,smsp__inst_executed.sum,gpu__time_duration.sum,launch__registers_per_thread
timeout 60 ncu --clock-control none --metrics $M --profile-from-start off --launch-skip 1 --launch-count 1 --csv \
  --page details python3 bench/results/sweep-2026-11-27/lab_k32.py 395,1,12635 NN stream > $OUT/ncu-by-12635.csv 2>> $W/ncu.log
echo "ncu exit $? $(( $(date +%s) - T0 )) s"
TESTS="tests/test_simt_stream_gpu.py tests/test_simt_strips_gpu.py tests/test_c_batched_gpu.py tests/test_streams_gpu.py"
timeout 150 python3 -m pytest -q -p no:cacheprovider -rfE -n 8 $TESTS > $W/pytest.txt 2>&1
echo "pytest exit $? $(( $(date +%s) - T0 )) s"; grep -E "^FAILED|^ERROR| passed| failed" $W/pytest.txt | cut -c1-250 | head -12
echo "done $(( $(date +%s) - T0 )) s"
