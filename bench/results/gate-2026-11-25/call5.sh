#!/usr/bin/env bash
# Device call 5 (README.md here): call 4's tree with the wide test folded into the split's own
# test of each run (two operations a value), and AUTO's tests updated for its FP32 blocks. Build;
# the AUTO, fused_mma and planner tests; racecheck over the guarded kernel (call 4's filter
# selected no test); AUTO's gate; the held-out sample (seed 26).
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/g5; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call5.tgz -C $W .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"
timeout 150 python3 -m pytest -q -p no:cacheprovider -rfEs -n 8 tests/test_auto_fused_gpu.py tests/test_auto_gpu.py \
  tests/test_fused_mma_gpu.py tests/test_planner_gpu.py tests/test_streams_gpu.py > $W/tests.txt 2>&1
echo "tests exit $?"; tail -1 $W/tests.txt; grep -E "^FAILED|^ERROR" $W/tests.txt | head -12
timeout 80 compute-sanitizer --tool racecheck --kernel-name kns=fused_mma_kernel python3 -m pytest -q \
  -p no:cacheprovider tests/test_auto_fused_gpu.py -k "only_the_blocks or every_stage_wide" > $W/racecheck.txt 2>&1
echo "racecheck exit $?"; grep -E "RACECHECK SUMMARY|passed|failed" $W/racecheck.txt | tail -2
timeout 90 python3 -m bench.auto_gate --out $W/gate > $W/gate.log 2>&1
echo "gate exit $?"; grep -E "AUTO above" $W/gate/table.md
timeout 170 python3 -m bench.random --seed 26 --out $W/random-seed26 --max-minutes 2.4 > $W/random.log 2>&1
echo "random exit $?"; grep -E "^\| (tf32tf32|halfhalf|auto) \| (1018|200) \||^\| auto \| tf32tf32" $W/random-seed26/table.md
