#!/usr/bin/env bash
# Device call 4 (README.md here): where fused_mma's CTAs spend their cycles on three of call 3's shapes (its FP32 form,
# its 32 and 64 tiles) against cuBLAS's kernels: warp stall reasons per issued instruction, instructions, cycles.
set -o pipefail
export PYTHONUNBUFFERED=1
D=$PWD/bench/results/misses-2026-11-25
W=/tmp/m4; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call4.tgz -C $W .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"
R=smsp__average_warps_issue_stalled
M=""
for s in long_scoreboard short_scoreboard barrier membar wait math_pipe_throttle mio_throttle lg_throttle not_selected \
         selected dispatch_stall drain sleeping branch_resolving no_instruction imc_miss misc tex_throttle; do
  M="$M,${R}_${s}_per_issue_active.ratio"
done
M="smsp__inst_executed.sum,smsp__inst_executed.avg.per_cycle_active,sm__cycles_active.avg,gpu__time_duration.sum,smsp__warps_launched.sum$M"
S="15060:4:18:NT 9:109:13946:TN 1914:35:536:NT"
cd /tmp && timeout 300 ncu --clock-control none --cache-control none --kernel-name regex:"fused_mma|xmma" \
  --metrics $M --csv --page raw python3 $D/ncu_driver.py $S > $W/stalls.csv 2> $W/stalls.err
echo "ncu exit $?"; gzip -f $W/stalls.csv
