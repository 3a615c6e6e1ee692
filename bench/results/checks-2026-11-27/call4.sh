#!/usr/bin/env bash
# Device call 4 (README.md here): this tree (s: call 2's kernels, the four general rows refitted on call 3's
# calibration) against main (63b9633, .baseline) on the held-out sample (seed 26), main first; compare.py,
# residuals.py; the planner and fused_wgmma GPU tests on (s).
set -o pipefail
export PYTHONUNBUFFERED=1
C=$PWD/bench/results/cluster-2026-11-26
N=$PWD/bench/results/narrow-tiles-2026-11-26
W=/tmp/c4; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call4.tgz -C $W --exclude="*.png" .' EXIT
T0=$(date +%s)
BUILD="python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real"
$BUILD --target /tmp/site-base -C build-dir=/tmp/bbase .baseline > $W/build-base.txt 2>&1 &
$BUILD --target /tmp/site-s -C build-dir=/tmp/bs . > $W/build-s.txt 2>&1
echo "build exit $?"; wait; echo "builds done $(( $(date +%s) - T0 )) s"; grep -h "Successfully installed" $W/build*.txt | wc -l
for f in $W/build-*.txt; do tail -3 $f > $f.t && mv $f.t $f; done
for v in base s; do
  PYTHONPATH=/tmp/site-$v timeout 95 python3 -m bench.random --seed 26 --out $W/random-$v --max-minutes 0.9 --no-plots > $W/random-$v.log 2>&1
  echo "random $v exit $? $(( $(date +%s) - T0 )) s"; grep -E "^\| (tf32tf32|halfhalf|auto) \| (1018|200) " $W/random-$v/table.md | cut -c1-70
done
python3 $C/compare.py $W/random-s/results.json $W/random-base/results.json > $W/compare.txt 2>&1; grep -A8 "^gemm tf32tf32\|^gemm halfhalf" $W/compare.txt | cut -c1-300
python3 $N/residuals.py $W/random-s/results.json
PYTHONPATH=/tmp/site-s timeout 90 python3 -m pytest -q -p no:cacheprovider -rfEs -n 8 tests/test_planner_gpu.py tests/test_fused_wgmma_narrow_gpu.py > $W/tests.txt 2>&1
echo "tests exit $? $(( $(date +%s) - T0 )) s"; tail -n 1 $W/tests.txt; grep -E "^FAILED|^ERROR" $W/tests.txt | head -5
gzip -f $W/random-*/results.json $W/*.log
