#!/usr/bin/env bash
# Device call 4 (README.md here), the landed tree: what bounds the strip tile on the slowest strip batches of seed 26
# (ncu, one call each through auto-price-2026-11-28's one_call.py): 9777 x 15x16x286 and 2333 x 194x23x13 (interleaved),
# 2877 x 358x4x31 (consecutive, k < 8); then the strip tests with odd strides on 242 x 6 products (every k and layout) and the bit test of the two
# row orders under compute-sanitizer's memcheck.
set -o pipefail
export PYTHONUNBUFFERED=1
AB=$PWD/bench/results/auto-price-2026-11-28
W=/tmp/s4; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call4.tgz -C $W .' EXIT
T0=$(date +%s)
python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real \
  -C build-dir=/tmp/b1-new . > $W/build.txt 2>&1; echo "build exit $? $(( $(date +%s) - T0 )) s"; tail -3 $W/build.txt > $W/b.t && mv $W/b.t $W/build.txt
M=gpu__time_duration.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed,dram__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum,dram__bytes_write.sum,lts__throughput.avg.pct_of_peak_sustained_elapsed,l1tex__throughput.avg.pct_of_peak_sustained_active,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sector_hit_rate.pct,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum,smsp__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_drain_per_issue_active.ratio,smsp__average_warps_issue_stalled_no_instruction_per_issue_active.ratio,smsp__average_warps_issue_stalled_wait_per_issue_active.ratio,launch__grid_size,launch__registers_per_thread
for s in "9777 15 16 286" "2333 194 23 13" "2877 358 4 31"; do
  f=ncu-$(echo $s | tr ' ' x).csv
  (cd $AB && timeout 90 ncu --clock-control none --metrics $M --profile-from-start off --csv --page details \
    python3 one_call.py $s tf32tf32 > $W/$f 2> $W/$f.err); echo "ncu $s exit $? $(( $(date +%s) - T0 )) s"
done
export PYTHONPATH=$PWD
LEFT=$(( 420 - ($(date +%s) - T0) ))
timeout $LEFT compute-sanitizer --tool memcheck --error-exitcode 3 --print-limit 20 python3 -m pytest -q -x -p no:cacheprovider \
  tests/test_simt_strips_gpu.py -k "interleaved or (test_products and odd and 242)" > $W/memcheck.txt 2>&1
echo "memcheck exit $? $(( $(date +%s) - T0 )) s"; grep -E "ERROR SUMMARY| passed| failed" $W/memcheck.txt | head -5
