#!/usr/bin/env bash
# Device call 7 (README.md here): ncu on the narrow tiles where the general kernel's transform takes ~2,900 cycles a
# unit against the TMA kernel's ~2,000 (calls 5, 6): this tree on 14626 x 3729 x 22 with class maps (TN, TT) and on the
# aligned 14624 x 3728 x 24 (the TMA kernel), main (944038c, .baseline: copies) on the first; warp stall reasons,
# shared-memory wavefronts and conflicts, instructions. Then this tree's fused_wgmma, batched and streams GPU tests.
set -o pipefail
export PYTHONUNBUFFERED=1
D=$PWD/bench/results/aligned-copies-2026-11-27
R=$PWD/bench/results/ring-2026-11-26
W=/tmp/a7; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call7.tgz -C $W .' EXIT
T0=$(date +%s)
BUILD="python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real"
$BUILD --target /tmp/site-base -C build-dir=/tmp/bbase .baseline > $W/build-base.txt 2>&1 &
$BUILD -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"; wait; echo "builds done $(( $(date +%s) - T0 )) s"
cd /tmp
for probe in "new fused_wgmma:narrow TN 14626 3729 22" "new fused_wgmma:narrow TT 14626 3729 22" \
             "new fused_wgmma:narrow TN 14624 3728 24" "base fused_wgmma:narrow TN 14626 3729 22"; do
  set -- $probe; v=$1; shift
  tag="$v-$1-$2-$3-$4-$5"; tag="${tag//:/-}"
  site=""; [ $v = base ] && site=/tmp/site-base
  PYTHONPATH=$site timeout 120 ncu --clock-control none --kernel-name regex:fused_wgmma --launch-skip 2 --launch-count 1 \
    --section SpeedOfLight --section WarpStateStats --section SchedulerStats --section InstructionStats \
    --metrics l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,smsp__inst_executed.sum,sm__cycles_elapsed.avg,smsp__pcsamp_warps_issue_stalled_no_instructions,smsp__pcsamp_warps_issue_stalled_branch_resolving \
    --csv --page details python3 $R/thin_probe.py $@ > $W/ncu-$tag.csv 2> $W/ncu-$tag.err
  echo "$tag exit $? $(( $(date +%s) - T0 )) s $(grep -m1 -o 'family=[^"]*' $W/ncu-$tag.csv | head -c 100)"
  grep -E '"(Duration|Executed Instructions|Issued Warp Per Scheduler|No Eligible|l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum|l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum|l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum|sm__cycles_elapsed.avg|smsp__inst_executed.sum|smsp__pcsamp_warps_issue_stalled_no_instructions|smsp__pcsamp_warps_issue_stalled_branch_resolving)"' \
    $W/ncu-$tag.csv | awk -F'","' '{print "   ", $(NF-2), $(NF-1), $NF}' | sort -u | head -20
  grep -E '"Stall' $W/ncu-$tag.csv | awk -F'","' '$NF+0 > 0.3 {print "   ", $(NF-2), $NF}' | head -14
done
gzip -f $W/*.csv
cd - > /dev/null
timeout 200 python3 -m pytest -q -p no:cacheprovider -rfEs -n 8 tests/test_fused_wgmma_narrow_gpu.py tests/test_fused_wgmma_gpu.py \
  tests/test_c_batched_gpu.py tests/test_streams_gpu.py > $W/tests.txt 2>&1
echo "tests exit $? $(( $(date +%s) - T0 )) s"; tail -n 1 $W/tests.txt; grep -E "^FAILED|^ERROR" $W/tests.txt | head -8
