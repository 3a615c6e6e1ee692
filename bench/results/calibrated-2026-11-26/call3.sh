#!/usr/bin/env bash
# Device call 3 (README.md here): every cost row rescaled by its factor on the calibration (fit_report.md) against
# main (e979d52, carried as .baseline): planner GPU tests; the held-out sample (seed 26) twice for each tree,
# alternating, so that the run-to-run spread is measured beside the change; then, under compute-sanitizer, the
# torch.compile probe over plain torch.mm and over ecgemm (probe_compile.py).
set -o pipefail
export PYTHONUNBUFFERED=1
D=$PWD/bench/results/calibrated-2026-11-26
W=/tmp/k3; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call3.tgz -C $W --exclude="*.png" .' EXIT
T0=$(date +%s)
BUILD="python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real"
$BUILD --target /tmp/base-site -C build-dir=/tmp/bbase .baseline > $W/build-base.txt 2>&1 &
$BUILD -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"; wait; echo "builds done $(( $(date +%s) - T0 )) s"
timeout 90 python3 -m pytest -q -p no:cacheprovider -rfEs -n 8 tests/test_planner_gpu.py tests/test_planner.py \
  > $W/tests.txt 2>&1
echo "tests exit $?"; tail -n 1 $W/tests.txt; grep -E "^FAILED|^ERROR" $W/tests.txt | head -8
for r in 1 2; do
  timeout 95 python3 -m bench.random --seed 26 --out $W/random$r --max-minutes 1.3 --no-plots > $W/random$r.log 2>&1
  echo "random$r exit $? $(( $(date +%s) - T0 )) s"; grep -E "^\| (tf32tf32|halfhalf|auto) \| (1018|200) " $W/random$r/table.md
  PYTHONPATH=/tmp/base-site timeout 95 python3 -m bench.random --seed 26 --out $W/base$r --max-minutes 1.3 \
    --no-plots > $W/base$r.log 2>&1
  echo "base$r exit $? $(( $(date +%s) - T0 )) s"; grep -E "^\| (tf32tf32|halfhalf|auto) \| (1018|200) " $W/base$r/table.md
done
for r in 1 2; do
  python3 $D/../cluster-2026-11-26/compare.py $W/random$r/results.json $W/base$r/results.json > $W/compare$r.txt
done
python3 $D/../cluster-2026-11-26/compare.py $W/base2/results.json $W/base1/results.json > $W/compare-base2-base1.txt
grep -E "^(gemm|batched)|routes changed" $W/compare1.txt $W/compare2.txt $W/compare-base2-base1.txt | head -30
gzip -f $W/random*/results.json $W/base*/results.json $W/*.log
for probe in torch ecgemm; do
  LEFT=$(( 585 - ($(date +%s) - T0) )); [ $LEFT -lt 20 ] && break
  timeout $LEFT compute-sanitizer --tool memcheck python3 $D/probe_compile.py $([ $probe = ecgemm ] && echo ecgemm) \
    > $W/probe-$probe.txt 2>&1
  echo "probe $probe exit $?"; grep -E "probe ok|Error|ERROR SUMMARY" $W/probe-$probe.txt | tail -3 | cut -c1-200
done
