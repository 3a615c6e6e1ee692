#!/usr/bin/env bash
# Device call 4 (README.md here): call 3's tree with gemv/lines refitted on call 1's calibration with this tree's plan
# features (tools/fit_cost_model.py pricing each timed form under its own pin: call1/fit_report.md); call 3's row had
# been fitted with call 2's. The GEMV and planner GPU tests; ab_batched.py (the planner's route, gemv:lines,
# gemv:wide); the held-out sample (seed 26).
set -o pipefail
export PYTHONUNBUFFERED=1
R=$PWD; D=$R/bench/results/batched-lines-2026-11-26
W=/tmp/l4; rm -rf $W; mkdir -p $W
trap 'gzip -f $W/random/results.json; tar czf $OUT/call4.tgz -C $W .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"
timeout 150 python3 -m pytest -q -p no:cacheprovider -rfEs -n 12 tests/test_gemv_gpu.py tests/test_planner.py \
  tests/test_planner_gpu.py tests/test_c_batched_gpu.py > $W/tests.txt 2>&1
echo "tests exit $?"; tail -n 1 $W/tests.txt; grep -E "^FAILED|^ERROR" $W/tests.txt | head -12
(cd /tmp && timeout 120 python3 $D/ab_batched.py $D/shapes_batched.txt $W/ab_batched.json - gemv:lines gemv:wide > $W/ab_batched.txt 2> $W/ab_batched.err)
echo "ab_batched exit $?"; tail -n 2 $W/ab_batched.err
timeout 100 python3 -m bench.random --seed 26 --max-minutes 1.4 --out $W/random > $W/random.md 2> $W/random.log
echo "random exit $?"; grep -E "^\| (tf32tf32|halfhalf|auto) \| [0-9]" $W/random/table.md | head -6
