#!/usr/bin/env bash
# Device call 1 (README.md here): main (09acba0, with the simt thin tile) through what the last session could not
# run on it: the streams / graph / preload tests, the accuracy suite, bench.stress; then ncu over fused_mma on three
# held-out misses with one side of 46-134 against two long ones (issue 25).
set -o pipefail
export PYTHONUNBUFFERED=1
D=$PWD/bench/results/ring-2026-11-26
W=/tmp/w1; rm -rf $W; mkdir -p $W
trap 'gzip -f $W/*.txt $W/*.csv 2>/dev/null; tar czf $OUT/call1.tgz -C $W .' EXIT
T0=$(date +%s)
python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real \
  -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $? $(( $(date +%s) - T0 )) s"
timeout 150 python3 -m pytest -q -rfEs -p no:cacheprovider -n 4 tests/test_streams_gpu.py tests/test_intercept_gpu.py \
  tests/test_simt_stream_gpu.py > $W/streams.txt 2>&1
echo "streams exit $? $(( $(date +%s) - T0 )) s"; tail -n 1 $W/streams.txt
timeout 130 python3 -m bench --sections accuracy --no-xla --max-minutes 1.8 --no-plots --out $W/accuracy > $W/accuracy.md 2> $W/accuracy.log
echo "accuracy exit $? $(( $(date +%s) - T0 )) s"; grep -A3 "^## Flags" $W/accuracy.md | head -4
timeout 60 python3 -m bench.stress --seconds 20 --out $W/stress > $W/stress.txt 2>&1
echo "stress exit $? $(( $(date +%s) - T0 )) s"; grep -E "^\| (none|32 MiB)" $W/stress/table.md
cd /tmp
for shape in "TN 46 2747 13204" "TT 2406 15001 134" "NN 11450 15568 83"; do
  tag="${shape// /-}"
  timeout 60 ncu --clock-control none --kernel-name regex:fused_mma --launch-skip 2 --launch-count 1 \
    --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section Occupancy \
    --section LaunchStats --section SchedulerStats --section InstructionStats --metrics smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_wait_per_issue_active.ratio,smsp__average_warps_issue_stalled_not_selected_per_issue_active.ratio,smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_dispatch_stall_per_issue_active.ratio,smsp__average_warps_issue_stalled_no_instruction_per_issue_active.ratio,smsp__average_warps_issue_stalled_tex_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_membar_per_issue_active.ratio,smsp__average_warps_issue_stalled_sleeping_per_issue_active.ratio,smsp__average_warps_issue_stalled_drain_per_issue_active.ratio,smsp__average_warps_issue_stalled_imc_miss_per_issue_active.ratio,smsp__average_warps_issue_stalled_branch_resolving_per_issue_active.ratio,smsp__average_warps_issue_stalled_selected_per_issue_active.ratio \
    --csv --page details python3 $D/thin_probe.py fused_mma $shape > $W/ncu-$tag.csv 2> $W/ncu-$tag.err
  echo "$tag exit $? $(( $(date +%s) - T0 )) s $(grep -m1 -o 'family=[^"]*' $W/ncu-$tag.csv | head -c 90)"
  grep -E '"(Duration|Executed Instructions|DRAM Throughput|Compute \(SM\) Throughput|Achieved Occupancy|Issued Warp Per Scheduler|Warp Cycles Per Issued Instruction|Registers Per Thread|Grid Size|Block Limit Registers|Block Limit Shared Mem|Stall Long Scoreboard|Stall Barrier|Stall Math Pipe Throttle|Stall Short Scoreboard|Stall Wait|Stall MIO Throttle)"' \
    $W/ncu-$tag.csv | awk -F'","' '{print "   ", $(NF-2), $NF}'
  grep stalled $W/ncu-$tag.csv | awk -F'","' '$NF+0 > 0.3 {print "   ", $(NF-2), $NF}'
done
