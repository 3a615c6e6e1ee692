#!/usr/bin/env bash
# Device call 2 (README.md here): ncu over the narrow tiles (pinned) on three products: TMA on both operands
# (4876 x 4316 x 64 TN, N = 64), copied narrow operand (14626 x 3729 x 22 TN, N = 32), N = 16 (11773 x 14899 x 12 NN),
# and the wide 64 x 128 tile on the first; pipe, shared-memory and DRAM use.
set -o pipefail
export PYTHONUNBUFFERED=1
D=$PWD/bench/results/narrow-tiles-2026-11-26
W=/tmp/w2; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call2.tgz -C $W .' EXIT
T0=$(date +%s)
python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real \
  -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $? $(( $(date +%s) - T0 )) s"
cd /tmp
for probe in "fused_wgmma:narrow TN 4876 4316 64" "fused_wgmma TN 4876 4316 64" "fused_wgmma:narrow TN 14626 3729 22" \
             "fused_wgmma:narrow NN 11773 14899 12"; do
  tag="${probe// /-}"; tag="${tag//:/-}"
  timeout 90 ncu --clock-control none --kernel-name regex:fused_wgmma --launch-skip 2 --launch-count 1 \
    --section SpeedOfLight --section MemoryWorkloadAnalysis --section ComputeWorkloadAnalysis --section WarpStateStats \
    --section SchedulerStats --section InstructionStats --section LaunchStats \
    --metrics sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,smsp__inst_executed.sum,sm__cycles_elapsed.avg,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum \
    --csv --page details python3 $D/../ring-2026-11-26/thin_probe.py $probe > $W/ncu-$tag.csv 2> $W/ncu-$tag.err
  echo "$tag exit $? $(( $(date +%s) - T0 )) s $(grep -m1 -o 'family=[^"]*' $W/ncu-$tag.csv | head -c 100)"
  grep -E '"(Duration|Executed Instructions|DRAM Throughput|Compute \(SM\) Throughput|Memory Throughput|Issued Warp Per Scheduler|Shared Memory|L1/TEX Hit Rate|Issue Slots Busy|Grid Size|sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active|l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum|l1tex__data_pipe_lsu_wavefronts_mem_shared.sum|l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum|l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum|sm__cycles_elapsed.avg|smsp__inst_executed.sum)"' \
    $W/ncu-$tag.csv | awk -F'","' '{print "   ", $(NF-2), $(NF-1), $NF}' | sort -u | head -30
  grep -E '"Stall' $W/ncu-$tag.csv | awk -F'","' '$NF+0 > 0.5 {print "   ", $(NF-2), $NF}' | head -12
done
gzip -f $W/*.csv
