#!/usr/bin/env bash
# Device call 2 (README.md): the tree with simt/piped's row calibrated (call 1's seed 41): the simt, planner and
# piped GPU tests, memcheck over the piped tests, then the random sweep (seed 26, README's first row).
set -o pipefail
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
T0=$(date +%s)
python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real \
  -C build-dir=/tmp/b1 . > $OUT/build.txt 2>&1; echo "build exit $? $(( $(date +%s) - T0 )) s"; tail -1 $OUT/build.txt
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv,noheader
timeout 170 python3 -m pytest -q -p no:cacheprovider -rfE -n 12 tests/test_simt_*_gpu.py tests/test_planner_gpu.py \
  tests/test_planner.py tests/test_c_batched_gpu.py tests/test_streams_gpu.py > $OUT/tests.txt 2>&1
echo "tests exit $? $(( $(date +%s) - T0 )) s"; tail -n 1 $OUT/tests.txt; grep -E "^FAILED|^ERROR" $OUT/tests.txt | cut -c1-220 | head
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 9 python3 -m pytest -q -p no:cacheprovider -x \
  tests/test_simt_piped_gpu.py -k "split or batch or edge" > $OUT/memcheck.txt 2>&1
echo "memcheck exit $? $(( $(date +%s) - T0 )) s"; grep -E "ERROR SUMMARY|passed|failed" $OUT/memcheck.txt | tail -2
LEFT=$(( 575 - ($(date +%s) - T0) )); MM=$(python3 -c "print(max(0.5, ($LEFT - 45) / 60))")
echo "sweep gets $MM min"
timeout $(( LEFT - 10 )) python3 -m bench.random --seed 26 --max-minutes $MM --out $OUT/random-26 --no-plots \
  > $OUT/random-26.log 2>&1
echo "random exit $? $(( $(date +%s) - T0 )) s"; grep -E "^\| (tf32tf32|halfhalf|auto) \| [0-9]+ \| " $OUT/random-26/table.md | cut -c1-80
gzip -f $OUT/random-26/results.json $OUT/random-26.log
