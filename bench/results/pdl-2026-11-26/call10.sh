#!/usr/bin/env bash
# Device call 10 (README.md here): fused_mma's FP32 form's cost row (fused_mma32/fp32) refitted on cluster-2026-11-26
# call 6's calibration (call10_row.patch), against main (9850e03, carried as .baseline): FP32-form, simt and planner
# GPU tests; the held-out sample (seed 26) for both trees.
set -o pipefail
export PYTHONUNBUFFERED=1
D=$PWD/bench/results/pdl-2026-11-26
W=/tmp/p10; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call10.tgz -C $W --exclude="*.png" .' EXIT
BUILD="python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real"
$BUILD --target /tmp/base-site -C build-dir=/tmp/bbase .baseline > $W/build-base.txt 2>&1 &
$BUILD -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $? $(date +%T)"; wait; echo "baseline build done $(date +%T)"
timeout 150 python3 -m pytest -q -p no:cacheprovider -rfEs -n 8 tests/test_fused_mma_fp32_gpu.py tests/test_simt_strips_gpu.py tests/test_simt_stream_gpu.py tests/test_planner_gpu.py \
  tests/test_planner.py > $W/tests.txt 2>&1
echo "tests exit $?"; tail -n 1 $W/tests.txt; grep -E "^FAILED|^ERROR" $W/tests.txt | head -8
PYTHONPATH=/tmp/base-site timeout 100 python3 -m bench.random --seed 26 --out $W/base-random --max-minutes 1.4 \
  --no-plots > $W/base-random.log 2>&1
echo "baseline random exit $?"; grep -E "^\| (tf32tf32|halfhalf|auto) \| (1018|200) " $W/base-random/table.md
timeout 100 python3 -m bench.random --seed 26 --out $W/random --max-minutes 1.4 --no-plots > $W/random.log 2>&1
echo "random exit $?"; grep -E "^\| (tf32tf32|halfhalf|auto) \| (1018|200) " $W/random/table.md
python3 $D/../cluster-2026-11-26/compare.py $W/random/results.json $W/base-random/results.json > $W/compare.txt
grep -E "^(gemm|batched)|routes changed|->" $W/compare.txt | head -30
gzip -f $W/random/results.json $W/base-random/results.json $W/random.log $W/base-random.log
echo "end $(date +%T)"
