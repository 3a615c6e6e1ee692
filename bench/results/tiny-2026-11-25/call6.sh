#!/usr/bin/env bash
# Device call 6 (README.md here): the tree committed: the planner offers the FP32 form at k <= 16 only
# (call 5: at k 17..32 it ran 0.80x the products it replaced), its row from call 3; the GPU tests the
# planner change touches; the held-out random sample (seed 26), README's table.
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/t6; rm -rf $W; mkdir -p $W
trap 'gzip -f $W/random/results.json; tar czf $OUT/call6.tgz -C $W .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"
timeout 120 python3 -m pytest -q -p no:cacheprovider -rfEs -n 12 tests/test_fused_mma_fp32_gpu.py \
  tests/test_planner_gpu.py tests/test_simt_stream_gpu.py tests/test_simt_strips_gpu.py > $W/tests.txt 2>&1
echo "tests exit $?"; tail -1 $W/tests.txt; grep -E "^FAILED|^ERROR" $W/tests.txt | head -12
timeout 200 python3 -m bench.random --seed 26 --max-minutes 3 --out $W/random > $W/random.md 2> $W/random.log
echo "random exit $?"; grep -E "^\| (tf32tf32|halfhalf|auto) \| [0-9]" $W/random/table.md | head -6
