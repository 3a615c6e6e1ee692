#!/usr/bin/env bash
# Device call H (README.md): the tree (gemv_fp64_staged.patch, then fp32_form_fp64.patch, applied) against the
# baseline (f652b9b, FP32 sums; carried as .baseline), each built and timed in turn on one machine. The tree: call G's
# FP64 GEMV sums with the thin values staged in FP64, converted once a CTA; fused_mma's FP32 form summing in FP64 where
# that hides. The tree's GEMV, FP32-form, planner, stream and batched tests; seed 26's sweep and big.py --pinned on
# each build, and on the tree once more with the thin side along k read a lane at a time as in call G
# (ECGEMM_GEMV_THIN=loaded, the patch's experiment switch); both GEMV kernels under ncu (pipes, stalls); memcheck.
set -o pipefail
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
T0=$(date +%s); R=bench/results/gemv-fp64-2026-12-07; O=$OUT/callH
mkdir -p $O
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv,noheader
for build in tree base; do
  src=.; [ $build = base ] && src=.baseline
  python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real \
    -C build-dir=/tmp/b-$build $src > $O/build-$build.txt 2>&1; echo "$build build exit $? $(( $(date +%s) - T0 )) s"
  if [ $build = tree ]; then
    timeout 150 python3 -m pytest -q -p no:cacheprovider -rfE -n 14 tests/test_gemv_gpu.py tests/test_planner_gpu.py \
      tests/test_streams_gpu.py tests/test_c_batched_gpu.py tests/test_fused_mma_fp32_gpu.py tests/test_planner.py \
      > $O/tests.txt 2>&1
    echo "tests exit $? $(( $(date +%s) - T0 )) s"; tail -n 1 $O/tests.txt; grep -E "^FAILED|^ERROR" $O/tests.txt | cut -c1-220 | head
  fi
  mkdir -p $O/$build
  timeout 75 python3 -m bench.random --seed 26 --max-minutes 1.0 --out $O/$build/random-26 --no-plots \
    > $O/$build/random-26.log 2>&1
  echo "$build random exit $? $(( $(date +%s) - T0 )) s"; grep -E "^\| (tf32tf32|halfhalf|auto) \| [0-9]+ \| " $O/$build/random-26/table.md | cut -c1-80
  timeout 70 python3 $R/big.py $O/$build/big.jsonl --pinned > $O/$build/big.txt 2>&1; echo "$build big exit $? $(( $(date +%s) - T0 )) s"
  if [ $build = tree ]; then
    ECGEMM_GEMV_THIN=loaded timeout 70 python3 $R/big.py $O/tree/big-thin-loaded.jsonl --pinned > $O/tree/big-thin-loaded.txt 2>&1
    echo "tree big (thin loaded) exit $? $(( $(date +%s) - T0 )) s"
  fi
  gzip -f $O/$build/random-26/results.json $O/$build/random-26.log
  tar -czf $OUT/callH.tgz -C $OUT callH  # what came so far, should the call run out
done
paste <(cut -c1-64 $O/base/big.txt) <(cut -c1-64 $O/tree/big.txt)
python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real \
  -C build-dir=/tmp/b-tree . > /dev/null 2>&1
ncu_one() {  # $1: kernel regex, $2: label, $3: the product's Python setup (a, b)
  left=$(( 500 - ($(date +%s) - T0) )); [ $left -gt 30 ] || return
  timeout $(( left / 2 )) ncu --clock-control none -k regex:$1 --launch-skip 3 --launch-count 1 \
    --section ComputeWorkloadAnalysis --section WarpStateStats --section SchedulerStats --section Occupancy \
    --metrics sm__inst_executed_pipe_fp64.avg.pct_of_peak_sustained_active,sm__pipe_fp64_cycles_active.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_xu.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_active,dram__throughput.avg.pct_of_peak_sustained_elapsed \
    python3 -c "
import torch, ecgemm
$3
for _ in range(5): ecgemm.matmul(a, b, mode='tf32tf32')
torch.cuda.synchronize()" > $O/ncu-$2.txt 2>&1
  echo "ncu $2 exit $? $(( $(date +%s) - T0 )) s"
}
ncu_one gemv_along_len along-len-4 "a = torch.rand(16384, 16384, device='cuda').t(); b = torch.rand(16384, 4, device='cuda')"
ncu_one gemv_along_k along-k-1 "a = torch.rand(16384, 16384, device='cuda'); b = torch.rand(16384, 1, device='cuda')"
left=$(( 540 - ($(date +%s) - T0) ))
if [ $left -gt 30 ]; then
  timeout $left compute-sanitizer --tool memcheck --error-exitcode 7 python3 -m pytest -q -p no:cacheprovider \
    tests/test_gemv_gpu.py tests/test_fused_mma_fp32_gpu.py \
    -k "staged_over_spans and (N-T or T-N) or short_lines_batches and strided or fp64_sums_where and tf32tf32" \
    > $O/memcheck.txt 2>&1
  echo "memcheck exit $? $(( $(date +%s) - T0 )) s"; grep -E "ERROR SUMMARY|passed|failed" $O/memcheck.txt | tail -3
fi
tar -czf $OUT/callH.tgz -C $OUT callH
