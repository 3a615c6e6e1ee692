#!/usr/bin/env bash
# Device call 4 (README.md here), the landed tree: the held-out sweep (seed 34); k64_probe.py (32 < k <= 80: tf32tf32's
# route against simt and fused_mma's 32-wide tile pinned, residuals); ncu on a batch of small products where
# fused_mma's 32-wide tile runs 0.55x torch.bmm (4399 x 24 x 103 x 445, tf32tf32): what bounds it.
set -o pipefail
export PYTHONUNBUFFERED=1
D=$PWD/bench/results/auto-price-2026-11-28
W=/tmp/a4; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call4.tgz -C $W .' EXIT
T0=$(date +%s)
python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real \
  -C build-dir=/tmp/b4 . > $W/build.txt 2>&1; echo "build exit $? $(( $(date +%s) - T0 )) s"; tail -3 $W/build.txt > $W/b.t && mv $W/b.t $W/build.txt
export PYTHONPATH=$PWD
timeout 130 python3 -m bench.random --seed 34 --max-minutes 0.9 --out $W/random-34 --no-plots > $W/random-34.log 2>&1
echo "random exit $? $(( $(date +%s) - T0 )) s"; grep -E "^\| (tf32tf32|halfhalf|auto) \| [0-9]+ \| " $W/random-34/table.md | cut -c1-60
python3 bench/results/narrow-tiles-2026-11-26/residuals.py $W/random-34/results.json
gzip -f $W/random-34/results.json $W/*.log
(cd $D && timeout 90 python3 k64_probe.py $W/k64.jsonl > $W/k64.txt 2>&1); echo "k64 exit $? $(( $(date +%s) - T0 )) s"
M=gpu__time_duration.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed,dram__throughput.avg.pct_of_peak_sustained_elapsed,smsp__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active,launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem,launch__grid_size,launch__block_size,smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_wait_per_issue_active.ratio,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active
(cd $D && timeout 60 ncu --clock-control none --metrics $M --profile-from-start off --csv --page details \
  python3 one_call.py 4399 24 103 445 tf32tf32 > $W/ncu-batch.csv 2> $W/ncu-batch.err); echo "ncu exit $? $(( $(date +%s) - T0 )) s"
grep -c '"' $W/ncu-batch.csv
