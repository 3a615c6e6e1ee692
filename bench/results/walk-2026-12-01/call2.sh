#!/usr/bin/env bash
# Device call 2 (README.md): the landed tree (the planner's walk rule, its price, the planes:walk / planes:plain
# pins): the new GPU tests and the planner's, memcheck and racecheck over a slice of them, then the random sweep
# (seed 26), README's first row.
set -o pipefail
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
T0=$(date +%s)
python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real \
  -C build-dir=/tmp/b2 . > $OUT/build.txt 2>&1; echo "build exit $? $(( $(date +%s) - T0 )) s"; tail -1 $OUT/build.txt
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv,noheader
timeout 150 python3 -m pytest -q -p no:cacheprovider -rfE -n 8 tests/test_planes_walk_gpu.py tests/test_planner_gpu.py \
  tests/test_planner.py > $OUT/tests.txt 2>&1
echo "tests exit $? $(( $(date +%s) - T0 )) s"; tail -n 1 $OUT/tests.txt; grep -E "^FAILED|^ERROR" $OUT/tests.txt | cut -c1-220 | head
for t in memcheck racecheck; do
  timeout 100 compute-sanitizer --tool $t --error-exitcode 9 python3 -m pytest -q -p no:cacheprovider \
    tests/test_planes_walk_gpu.py -k "2000 and (tf32tf32 or halfhalf)" > $OUT/$t.txt 2>&1
  echo "$t exit $? $(( $(date +%s) - T0 )) s"; grep -E "ERROR SUMMARY|passed|failed" $OUT/$t.txt | tail -2
done
timeout 260 python3 -m bench.random --seed 26 --max-minutes 1.2 --out $OUT/random-26 --no-plots > $OUT/random-26.log 2>&1
echo "random exit $? $(( $(date +%s) - T0 )) s"; grep -E "^\| (tf32tf32|halfhalf|auto) \| [0-9]+ \| " $OUT/random-26/table.md | cut -c1-80
gzip -f $OUT/random-26/results.json $OUT/random-26.log
