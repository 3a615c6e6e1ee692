#!/usr/bin/env bash
# Device call 10 (README.md here): the thin tile (width <= 8) priced by a cost row of its own (simt/thin, fitted on
# call 9's pinned run: call9/thin-calibration.json.gz, call9/thin-fit.md), against main (95e4d3e, carried as
# .baseline): the simt, gemv and planner GPU tests; the held-out sample (seed 26) twice for each tree, main first in
# round 1 and second in round 2.
set -o pipefail
export PYTHONUNBUFFERED=1
D=$PWD/bench/results/ring-2026-11-26
W=/tmp/r10; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call10.tgz -C $W --exclude="*.png" .' EXIT
T0=$(date +%s)
BUILD="python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real"
$BUILD --target /tmp/base-site -C build-dir=/tmp/bbase .baseline > $W/build-base.txt 2>&1 &
$BUILD -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"; wait; echo "builds done $(( $(date +%s) - T0 )) s"
timeout 170 python3 -m pytest -q -p no:cacheprovider -rfEs -n 8 tests/test_simt_thin_gpu.py tests/test_simt_slim_gpu.py \
  tests/test_simt_stream_gpu.py tests/test_simt_strips_gpu.py tests/test_gemv_gpu.py tests/test_planner_gpu.py \
  tests/test_planner.py tests/test_fit_cost_model.py > $W/tests.txt 2>&1
echo "tests exit $? $(( $(date +%s) - T0 )) s"; tail -n 1 $W/tests.txt; grep -E "^FAILED|^ERROR" $W/tests.txt | head -8
run() {  # tree out
  if [ $1 = base ]; then PP=/tmp/base-site; else PP=; fi
  PYTHONPATH=$PP timeout 75 python3 -m bench.random --seed 26 --out $W/$2 --max-minutes 1.1 --no-plots > $W/$2.log 2>&1
  echo "$2 exit $? $(( $(date +%s) - T0 )) s"; grep -E "^\| (tf32tf32|halfhalf|auto) \| (1018|200) " $W/$2/table.md
}
run base base1; run new random1; run new random2; run base base2
for r in 1 2; do
  python3 $D/../cluster-2026-11-26/compare.py $W/random$r/results.json $W/base$r/results.json > $W/compare$r.txt
done
grep -E "^(gemm|batched)|routes changed|->" $W/compare1.txt $W/compare2.txt | head -40
gzip -f $W/random*/results.json $W/base*/results.json $W/*.log
