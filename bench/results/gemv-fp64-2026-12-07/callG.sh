#!/usr/bin/env bash
# Device call G (README.md): the gemv family's sums in FP64 (the tree) against the baseline (HEAD d9ba2e0, its
# FP32 sums; carried as .baseline), each built and timed in turn on one machine: the tree's GEMV, planner and stream
# GPU tests, seed 26's sweep (whole) and big.py's DRAM-bound products on each build; memcheck over GEMV tests last.
set -o pipefail
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
T0=$(date +%s); R=bench/results/gemv-fp64-2026-12-07
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv,noheader
for build in tree base; do
  src=.; [ $build = base ] && src=.baseline
  python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real \
    -C build-dir=/tmp/b-$build $src > $OUT/build-$build.txt 2>&1; echo "$build build exit $? $(( $(date +%s) - T0 )) s"
  if [ $build = tree ]; then
    timeout 120 python3 -m pytest -q -p no:cacheprovider -rfE -n 12 tests/test_gemv_gpu.py tests/test_planner_gpu.py \
      tests/test_streams_gpu.py tests/test_c_batched_gpu.py > $OUT/tests.txt 2>&1
    echo "tests exit $? $(( $(date +%s) - T0 )) s"; tail -n 1 $OUT/tests.txt; grep -E "^FAILED|^ERROR" $OUT/tests.txt | cut -c1-220 | head
  fi
  mkdir -p $OUT/$build
  timeout 100 python3 -m bench.random --seed 26 --max-minutes 1.4 --out $OUT/$build/random-26 --no-plots \
    > $OUT/$build/random-26.log 2>&1
  echo "$build random exit $? $(( $(date +%s) - T0 )) s"; grep -E "^\| (tf32tf32|halfhalf|auto) \| [0-9]+ \| " $OUT/$build/random-26/table.md | cut -c1-80
  timeout 60 python3 $R/big.py $OUT/$build/big.jsonl > $OUT/$build/big.txt 2>&1; echo "$build big exit $? $(( $(date +%s) - T0 )) s"
  gzip -f $OUT/$build/random-26/results.json $OUT/$build/random-26.log
done
paste <(cut -c1-60 $OUT/base/big.txt) <(cut -c1-60 $OUT/tree/big.txt)
python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real \
  -C build-dir=/tmp/b-tree . > /dev/null 2>&1
timeout 90 compute-sanitizer --tool memcheck --error-exitcode 7 python3 -m pytest -q -p no:cacheprovider \
  tests/test_gemv_gpu.py -k "split_k_and_long_k and T-N or short_lines_batches or dot_products" > $OUT/memcheck.txt 2>&1
echo "memcheck exit $? $(( $(date +%s) - T0 )) s"; grep -E "ERROR SUMMARY|passed|failed" $OUT/memcheck.txt | tail -3
