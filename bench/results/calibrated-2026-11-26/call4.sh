#!/usr/bin/env bash
# Device call 4 (README.md here): every kernel family's cost rows rescaled together by the family's factor on the
# calibration (fit_report.md; call 3 rescaled each row alone), against main (e979d52, carried as .baseline): the
# held-out sample (seed 26) twice for each tree, alternating; then this tree whole: GPU suite, accuracy suite,
# bench.stress.
set -o pipefail
export PYTHONUNBUFFERED=1
D=$PWD/bench/results/calibrated-2026-11-26
W=/tmp/k4; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call4.tgz -C $W --exclude="*.png" .' EXIT
T0=$(date +%s)
BUILD="python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real"
$BUILD --target /tmp/base-site -C build-dir=/tmp/bbase .baseline > $W/build-base.txt 2>&1 &
$BUILD -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"; wait; echo "builds done $(( $(date +%s) - T0 )) s"
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
grep -E "^(gemm|batched)|routes changed" $W/compare1.txt $W/compare2.txt | head -30
gzip -f $W/random*/results.json $W/base*/results.json $W/*.log
timeout 240 python3 -m pytest -q -p no:cacheprovider -rfEs -n 8 tests -k "not short_of_memory" > $W/suite.txt 2>&1
echo "suite exit $? $(( $(date +%s) - T0 )) s"; tail -n 1 $W/suite.txt; grep -E "^FAILED|^ERROR" $W/suite.txt | head -12
LEFT=$(( 560 - ($(date +%s) - T0) ))
timeout $(( LEFT > 100 ? 90 : LEFT - 10 )) python3 -m bench --sections accuracy --no-xla --max-minutes 1.2 --no-plots \
  --out $W/accuracy > $W/accuracy.md 2> $W/accuracy.log
echo "accuracy exit $?"; grep -A3 "^## Flags" $W/accuracy.md | head -4
LEFT=$(( 585 - ($(date +%s) - T0) ))
[ $LEFT -gt 20 ] && timeout $(( LEFT - 5 )) python3 -m bench.stress --seconds 3 --out $W/stress > $W/stress.log 2>&1
echo "stress exit $?"; grep -E "^\| (none|32 MiB)" $W/stress/table.md | head -2
