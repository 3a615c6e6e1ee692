#!/usr/bin/env bash
# Device call 3 (README.md here): AUTO on fused_mma with scales per row and 32-wide k-block
# chosen in the CTA. Build; AUTO's, fused_mma's, the properties' (auto), planner and batched
# GPU tests; the held-out sample (seed 26: AUTO against tf32tf32 and SGEMM); the accuracy gate.
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/a3; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call3.tgz -C $W .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"
timeout 200 python3 -m pytest -q -p no:cacheprovider -rfEs -n 8 tests/test_auto_gpu.py tests/test_fused_mma_gpu.py \
  tests/test_planner_gpu.py tests/test_c_batched_gpu.py tests/test_gpu_properties.py > $W/tests.txt 2>&1
echo "tests exit $?"; grep -E "passed|failed|FAILED|Error" $W/tests.txt | tail -15
timeout 120 python3 -m bench.random --seed 26 --out $W/random-seed26 --max-minutes 1.8 > $W/random.log 2>&1
echo "random exit $?"; grep "^| tf32tf32 | 1018\|^| halfhalf | 1018\|^| auto | 1018\|^| tf32tf32 | 200\|^| halfhalf | 200\|^| auto | 200\|^| auto | tf32tf32" $W/random-seed26/table.md
timeout 200 python3 -m bench.auto_gate --out $W/gate > $W/gate.log 2>&1
echo "gate exit $?"; grep -E "AUTO above|256×1024×256 \| type . \| auto" $W/gate/table.md
