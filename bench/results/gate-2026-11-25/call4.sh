#!/usr/bin/env bash
# Device call 4 (README.md here): AUTO on fused_mma takes a 32 x 32 block's stage in FP32 where
# its operands are too wide for tf32tf32's parts (docs/numerics.md section 12). Build; the new
# tests (lab model against the kernels, the gate's data) and the fused_mma, GEMV and planner
# tests; racecheck over the guarded kernel; AUTO's gate; the held-out sample (seed 26); the
# whole GPU suite.
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/g4; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call4.tgz -C $W .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"
timeout 150 python3 -m pytest -q -p no:cacheprovider -rfEs -n 8 tests/test_auto_fused_gpu.py \
  tests/test_fused_mma_gpu.py tests/test_planner_gpu.py tests/test_auto_gpu.py > $W/tests.txt 2>&1
echo "tests exit $?"; tail -1 $W/tests.txt; grep -E "^FAILED|^ERROR" $W/tests.txt | head -12
timeout 60 compute-sanitizer --tool racecheck --kernel-name kns=fused_mma_kernel python3 -m pytest -q \
  -p no:cacheprovider tests/test_auto_fused_gpu.py -k "only_the_blocks and batch" > $W/racecheck.txt 2>&1
echo "racecheck exit $?"; grep -E "RACECHECK SUMMARY|ERROR SUMMARY|passed|failed" $W/racecheck.txt | tail -2
timeout 90 python3 -m bench.auto_gate --out $W/gate > $W/gate.log 2>&1
echo "gate exit $?"; grep -E "AUTO above" $W/gate/table.md
timeout 170 python3 -m bench.random --seed 26 --out $W/random-seed26 --max-minutes 2.4 > $W/random.log 2>&1
echo "random exit $?"; grep -E "^\| (tf32tf32|halfhalf|auto) \| (1018|200) \||^\| auto \| tf32tf32" $W/random-seed26/table.md
timeout 200 python3 -m pytest -q -p no:cacheprovider -rfEs -n 8 tests -k "not short_of_memory" > $W/suite.txt 2>&1
echo "suite exit $?"; tail -1 $W/suite.txt; grep -E "^FAILED|^ERROR" $W/suite.txt | head -10
