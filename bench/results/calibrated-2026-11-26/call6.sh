#!/usr/bin/env bash
# Device call 6 (README.md here): the corrected modes' FP32 routes up to k = 48 (planner.cpp: kFp32RouteMaxK, 32
# before) with fused_mma's FP32 form over two stages (kFp32FormMaxK 64, unsplit), against main (0dffd4f, carried as
# .baseline): the FP32 form's and the planner's tests; the held-out sample (seed 26) twice for each tree,
# alternating; speed and residual of the shapes at 32 < k <= 48.
set -o pipefail
export PYTHONUNBUFFERED=1
D=$PWD/bench/results/calibrated-2026-11-26
W=/tmp/k6; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call6.tgz -C $W --exclude="*.png" .' EXIT
T0=$(date +%s)
BUILD="python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real"
$BUILD --target /tmp/base-site -C build-dir=/tmp/bbase .baseline > $W/build-base.txt 2>&1 &
$BUILD -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"; wait; echo "builds done $(( $(date +%s) - T0 )) s"
timeout 150 python3 -m pytest -q -p no:cacheprovider -rfEs -n 8 tests/test_fused_mma_fp32_gpu.py tests/test_planner_gpu.py \
  tests/test_planner.py > $W/tests.txt 2>&1
echo "tests exit $? $(( $(date +%s) - T0 )) s"; tail -n 1 $W/tests.txt; grep -E "^FAILED|^ERROR" $W/tests.txt | head -8
for r in 1 2; do
  timeout 100 python3 -m bench.random --seed 26 --out $W/random$r --max-minutes 1.5 --no-plots > $W/random$r.log 2>&1
  echo "random$r exit $? $(( $(date +%s) - T0 )) s"; grep -E "^\| (tf32tf32|halfhalf|auto) \| (1018|200) " $W/random$r/table.md
  PYTHONPATH=/tmp/base-site timeout 100 python3 -m bench.random --seed 26 --out $W/base$r --max-minutes 1.5 \
    --no-plots > $W/base$r.log 2>&1
  echo "base$r exit $? $(( $(date +%s) - T0 )) s"; grep -E "^\| (tf32tf32|halfhalf|auto) \| (1018|200) " $W/base$r/table.md
done
for r in 1 2; do
  python3 $D/../cluster-2026-11-26/compare.py $W/random$r/results.json $W/base$r/results.json > $W/compare$r.txt
done
grep -E "^(gemm|batched)|routes changed|->" $W/compare1.txt $W/compare2.txt | head -40
gzip -f $W/random*/results.json $W/base*/results.json $W/*.log
