#!/usr/bin/env bash
# Device call 5 (README.md here): the tree to commit (the FP32 form, its row fitted on call 4's
# k <= 32 calibration): the whole GPU suite, and the held-out random sample (seed 26) on the planner's
# routes (README's table), against scaled-2026-11-25 call 6 (main a4de322, same kind of H100).
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/t5; rm -rf $W; mkdir -p $W
trap 'gzip -f $W/random/results.json; tar czf $OUT/call5.tgz -C $W .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"
timeout 300 python3 -m pytest -q -p no:cacheprovider -rfEs -n 12 -k "not short_of_memory" tests/ > $W/tests.txt 2>&1
echo "tests exit $?"; tail -1 $W/tests.txt; grep -E "^FAILED|^ERROR" $W/tests.txt | head -20
timeout 200 python3 -m bench.random --seed 26 --max-minutes 3 --out $W/random > $W/random.md 2> $W/random.log
echo "random exit $?"; grep -E "^\| (tf32tf32|halfhalf|auto) \| [0-9]" $W/random/table.md | head -6
