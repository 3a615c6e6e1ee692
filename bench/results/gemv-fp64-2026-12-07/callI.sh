#!/usr/bin/env bash
# Device call I (README.md): call H's GEMV part corrected (gemv_fp64_i.patch: thin values staged without a division
# an element; one thin column along k and the lines kernel read a lane at a time again, as call G; a thin side of 2-4
# loaded a lane where the plan says so; FP64 staging only where the base stages), and fused_mma's FP32 form summing in
# FP64 at k <= 16 or in one wave (fp32_form_fp64.patch) with its panels now converted on their way from global memory
# (fp32_form_fp64_i.patch), against the baseline (f652b9b's sources, FP32 sums; carried as .baseline), on one
# machine, most needed first, as device time allows (LIMIT, seconds; starts were often refused): big.py --pinned
# on the tree; the tree's GEMV, FP32-form, planner, stream and batched tests; big.py with FP64 sums on every FP32-form
# grid (ECGEMM_FP64_SUMS=always, the patch's experiment switch); seed 26's sweep on the tree; memcheck; the base's
# build and big.py last, where time is left (else call H's base ran the same sources: ratios to cuBLAS compared).
set -o pipefail
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
T0=$(date +%s); R=bench/results/gemv-fp64-2026-12-07; O=$OUT/callI
LIMIT=${LIMIT:-450}
mkdir -p $O/tree $O/base
save() { tar -czf $OUT/callI.tgz -C $OUT callI; }  # what came so far, should the call run out
left() { echo $(( LIMIT - ($(date +%s) - T0) )); }
build() {  # $1: tree or base
  src=.; [ $1 = base ] && src=.baseline
  python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real \
    -C build-dir=/tmp/b-$1 $src > $O/build-$1.txt 2>&1; echo "$1 build exit $? $(( $(date +%s) - T0 )) s"
}
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv,noheader
build tree
timeout 80 python3 $R/big.py $O/tree/big.jsonl --pinned > $O/tree/big.txt 2>&1; echo "tree big exit $? $(( $(date +%s) - T0 )) s"
save
timeout $(( $(left) > 120 ? 120 : $(left) )) python3 -m pytest -q -p no:cacheprovider -rfE -n 14 tests/test_gemv_gpu.py \
  tests/test_fused_mma_fp32_gpu.py tests/test_planner_gpu.py tests/test_streams_gpu.py tests/test_c_batched_gpu.py \
  tests/test_planner.py > $O/tests.txt 2>&1
echo "tests exit $? $(( $(date +%s) - T0 )) s"; tail -n 1 $O/tests.txt; grep -E "^FAILED|^ERROR" $O/tests.txt | cut -c1-220 | head; save
if [ $(left) -gt 40 ]; then
  ECGEMM_FP64_SUMS=always timeout $(( $(left) > 80 ? 80 : $(left) )) python3 $R/big.py $O/tree/big-always.jsonl --pinned \
    > $O/tree/big-always.txt 2>&1
  echo "tree big (fp64 sums always) exit $? $(( $(date +%s) - T0 )) s"; save
fi
if [ $(left) -gt 60 ]; then
  timeout $(( $(left) > 75 ? 75 : $(left) )) python3 -m bench.random --seed 26 --max-minutes 1.0 --out $O/tree/random-26 \
    --no-plots > $O/tree/random-26.log 2>&1
  echo "tree random exit $? $(( $(date +%s) - T0 )) s"; grep -E "^\| (tf32tf32|halfhalf|auto) \| [0-9]+ \| " $O/tree/random-26/table.md | cut -c1-80
  gzip -f $O/tree/random-26/results.json $O/tree/random-26.log; save
fi
if [ $(left) -gt 30 ]; then
  timeout $(( $(left) > 70 ? 70 : $(left) )) compute-sanitizer --tool memcheck --error-exitcode 7 python3 -m pytest -q -p no:cacheprovider \
    tests/test_gemv_gpu.py tests/test_fused_mma_fp32_gpu.py \
    -k "staged_over_spans and (N-T or T-N) or short_lines_batches and strided or fp64_sums_where and tf32tf32" \
    > $O/memcheck.txt 2>&1
  echo "memcheck exit $? $(( $(date +%s) - T0 )) s"; grep -E "ERROR SUMMARY|passed|failed" $O/memcheck.txt | tail -3
fi
if [ $(left) -gt 150 ]; then  # else call H's base big.py (the same sources, an H100, ratios to cuBLAS in its process)
  build base
  timeout $(left) python3 $R/big.py $O/base/big.jsonl --pinned > $O/base/big.txt 2>&1; echo "base big exit $? $(( $(date +%s) - T0 )) s"
  paste <(cut -c1-64 $O/base/big.txt) <(cut -c1-64 $O/tree/big.txt)
fi
save
