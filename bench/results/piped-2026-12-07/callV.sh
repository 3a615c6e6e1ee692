#!/usr/bin/env bash
# Device call V (README.md), in place of call B where call 1 shows the piped tiles not worth calibrating: the whole
# GPU suite on the landed tree, memcheck over the piped tests, and the sweep of seed 26 in the time left.
set -o pipefail
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
T0=$(date +%s); BUDGET=${BUDGET:-585}
python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real \
  -C build-dir=/tmp/b1 . > $OUT/build.txt 2>&1; echo "build exit $? $(( $(date +%s) - T0 )) s"
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv,noheader
timeout 300 python3 -m pytest -q -p no:cacheprovider -rfE -n 12 tests > $OUT/tests-all.txt 2>&1
echo "suite exit $? $(( $(date +%s) - T0 )) s"; tail -n 1 $OUT/tests-all.txt; grep -E "^FAILED|^ERROR" $OUT/tests-all.txt | cut -c1-220 | head
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 9 python3 -m pytest -q -p no:cacheprovider -x \
  tests/test_simt_piped_gpu.py -k "split or batch or edge" > $OUT/memcheck.txt 2>&1
echo "memcheck exit $? $(( $(date +%s) - T0 )) s"; grep -E "ERROR SUMMARY|passed|failed" $OUT/memcheck.txt | tail -2
LEFT=$(( BUDGET - ($(date +%s) - T0) )); MM=$(python3 -c "print(max(0.5, ($LEFT - 40) / 60))")
echo "sweep gets $MM min"
timeout $(( LEFT - 10 )) python3 -m bench.random --seed 26 --max-minutes $MM --out $OUT/random-26 --no-plots \
  > $OUT/random-26.log 2>&1
echo "random exit $? $(( $(date +%s) - T0 )) s"; grep -E "^\| (tf32tf32|halfhalf|auto) \| [0-9]+ \| " $OUT/random-26/table.md | cut -c1-80
gzip -f $OUT/random-26/results.json $OUT/random-26.log
