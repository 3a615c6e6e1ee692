#!/usr/bin/env bash
# Device call 2 (README.md here): FP64 split-K reduction and AUTO's scaled form on fused_mma
# (pinned: ECGEMM_FAMILY=fused_mma[:tile]/halfhalf): the GPU suites they touch, AUTO's gate
# (planner's routes; and the scaled form pinned at the small shape), the spills.
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/c2; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call2.tgz -C $W .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index -v \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"; grep -c "spill" $W/build.txt
timeout 240 python3 -m pytest -q -p no:cacheprovider -rfEs -n 8 -k "not short_of_memory" \
  tests/test_auto_scaled_gpu.py tests/test_auto_fused_gpu.py tests/test_fused_mma_gpu.py \
  tests/test_streams_gpu.py tests/test_gemv_gpu.py tests/test_simt_stream_gpu.py tests/test_auto_gpu.py \
  tests/test_planner_gpu.py > $W/tests.txt 2>&1
echo "tests exit $?"; tail -1 $W/tests.txt; grep -E "^FAILED|^ERROR" $W/tests.txt | head -20
timeout 100 python3 -m bench.auto_gate --out $W/gate > $W/gate.log 2>&1
echo "gate exit $?"; grep -E "AUTO above" $W/gate/table.md; grep "outlier" $W/gate/table.md | grep -E "sgemm|auto"
ECGEMM_FAMILY=fused_mma/halfhalf timeout 60 python3 -m bench.auto_gate --shapes 256x1024x256,200x3000x200 --out $W/gate-scaled > $W/gate-scaled.log 2>&1
echo "gate scaled exit $?"; grep -E "AUTO above" $W/gate-scaled/table.md; grep -E "\| auto \|" $W/gate-scaled/table.md
