#!/usr/bin/env bash
# Device call 3 (README.md here): the planner offering the narrow tiles (their cost rows fitted on call 1's
# calibration) against main (6e57e4b, carried as .baseline): the fused_wgmma, narrow, planner and streams tests;
# the held-out sample (seed 26) twice for each tree, main first in round 1 and second in round 2.
set -o pipefail
export PYTHONUNBUFFERED=1
D=$PWD/bench/results/narrow-tiles-2026-11-26
W=/tmp/w3; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call3.tgz -C $W --exclude="*.png" --exclude="results.json.gz" .' EXIT
T0=$(date +%s)
BUILD="python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real"
$BUILD --target /tmp/base-site -C build-dir=/tmp/bbase .baseline > $W/build-base.txt 2>&1 &
$BUILD -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"; wait; echo "builds done $(( $(date +%s) - T0 )) s"
timeout 150 python3 -m pytest -q -p no:cacheprovider -rfEs -n 8 tests/test_fused_wgmma_narrow_gpu.py \
  tests/test_fused_wgmma_gpu.py tests/test_planner.py tests/test_planner_gpu.py tests/test_streams_gpu.py > $W/tests.txt 2>&1
echo "tests exit $? $(( $(date +%s) - T0 )) s"; tail -n 1 $W/tests.txt; grep -E "^FAILED|^ERROR" $W/tests.txt | head -12
run() {  # tree out
  if [ $1 = base ]; then PP=/tmp/base-site; else PP=; fi
  PYTHONPATH=$PP timeout 75 python3 -m bench.random --seed 26 --out $W/$2 --max-minutes 1.1 --no-plots > $W/$2.log 2>&1
  echo "$2 exit $? $(( $(date +%s) - T0 )) s"; grep -E "^\| (tf32tf32|halfhalf|auto) \| (1018|200) " $W/$2/table.md
}
run base base1; run new random1; run new random2; run base base2
for r in 1 2; do
  python3 $D/../cluster-2026-11-26/compare.py $W/random$r/results.json $W/base$r/results.json > $W/compare$r.txt
  gzip -f $W/random$r/results.json $W/base$r/results.json
done
grep -E "^(gemm|batched)|routes changed" $W/compare1.txt $W/compare2.txt | head -16
grep -A14 "fused_wgmma" $W/compare1.txt | head -40
gzip -f $W/*.log
