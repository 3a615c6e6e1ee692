#!/usr/bin/env bash
# Device call 2 (README.md): two FP32 stages in fused_mma's 32-wide tile (experiment switch ECGEMM_EXP_RING) against
# one: ring_ab.py on 96 products; the fused_mma GPU tests with two stages; memcheck and racecheck on a few of them.
set -o pipefail
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
D=bench/results/tiles-2026-12-02
T0=$(date +%s)
python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real \
  -C build-dir=/tmp/b1 . > $OUT/build.txt 2>&1; echo "build exit $? $(( $(date +%s) - T0 )) s"; tail -2 $OUT/build.txt
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv,noheader
timeout 300 python3 $D/ring_ab.py $OUT/ring_ab.jsonl 2>&1 | tee $OUT/ring_ab.txt | cut -c1-200 | awk 'NR%4==1'
echo "ab done $(( $(date +%s) - T0 )) s"
ECGEMM_EXP_RING=2 timeout 150 python3 -m pytest -q -p no:cacheprovider -rfE -n 8 tests/test_fused_mma_gpu.py \
  tests/test_fused_mma_fp32_gpu.py tests/test_c_batched_gpu.py tests/test_auto_gpu.py > $OUT/tests.txt 2>&1
echo "tests exit $? $(( $(date +%s) - T0 )) s"; tail -n 1 $OUT/tests.txt; grep -E "^FAILED|^ERROR" $OUT/tests.txt | cut -c1-200 | head
for tool in memcheck racecheck; do
  ECGEMM_EXP_RING=2 timeout 100 compute-sanitizer --tool $tool --print-limit 5 python3 -m pytest -q -p no:cacheprovider -x \
    tests/test_fused_mma_gpu.py -k "test_cluster_reduced_splits or test_nan_inf" > $OUT/$tool.txt 2>&1; echo "$tool exit $?"; tail -n 3 $OUT/$tool.txt
done
echo "all done $(( $(date +%s) - T0 )) s"
