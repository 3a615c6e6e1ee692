#!/usr/bin/env bash
# Device call 9 (README.md here): simt's thin tile for a thin side of at most 8 only (call 7's kernel at that width:
# the long operand through a two-stage shared-memory ring, a thread a row), against main (95e4d3e, carried as
# .baseline): simt and planner GPU tests; simt pinned on the calibration sample's thin cases twice for each build,
# alternating, main first (thin_width.py); the held-out sample (seed 26), main first.
set -o pipefail
export PYTHONUNBUFFERED=1
D=$PWD/bench/results/ring-2026-11-26
W=/tmp/r9; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call9.tgz -C $W --exclude="*.png" .' EXIT
T0=$(date +%s)
BUILD="python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real"
$BUILD --target /tmp/base-site -C build-dir=/tmp/bbase .baseline > $W/build-base.txt 2>&1 &
$BUILD -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"; wait; echo "builds done $(( $(date +%s) - T0 )) s"
timeout 170 python3 -m pytest -q -p no:cacheprovider -rfEs -n 8 tests/test_simt_thin_gpu.py tests/test_simt_slim_gpu.py \
  tests/test_simt_stream_gpu.py tests/test_simt_strips_gpu.py tests/test_gemv_gpu.py tests/test_planner_gpu.py \
  tests/test_planner.py > $W/tests.txt 2>&1
echo "tests exit $? $(( $(date +%s) - T0 )) s"; tail -n 1 $W/tests.txt; grep -E "^FAILED|^ERROR" $W/tests.txt | head -8
PINS="--seed 27 --count 1000 --batched-count 0 --max-width 8 --modes tf32tf32 --families simt --max-minutes 0.7 --no-plots"
for r in 1 2; do
  PYTHONPATH=/tmp/base-site timeout 50 python3 -m bench.random $PINS --out $W/pinned-base$r > $W/pinned-base$r.log 2>&1
  echo "pinned-base$r exit $? $(( $(date +%s) - T0 )) s"
  timeout 50 python3 -m bench.random $PINS --out $W/pinned-new$r > $W/pinned-new$r.log 2>&1
  echo "pinned-new$r exit $? $(( $(date +%s) - T0 )) s"
  python3 $D/thin_width.py $W/pinned-new$r/results.json $W/pinned-base$r/results.json > $W/by_width$r.txt
  cat $W/by_width$r.txt
done
python3 $D/thin_ab.py $W/pinned-new2/results.json $W/pinned-base2/results.json > $W/thin_ab2.txt; head -4 $W/thin_ab2.txt
PYTHONPATH=/tmp/base-site timeout 75 python3 -m bench.random --seed 26 --out $W/base --max-minutes 1.1 --no-plots > $W/base.log 2>&1
echo "base exit $? $(( $(date +%s) - T0 )) s"; grep -E "^\| (tf32tf32|halfhalf|auto) \| (1018|200) " $W/base/table.md
timeout 75 python3 -m bench.random --seed 26 --out $W/random --max-minutes 1.1 --no-plots > $W/random.log 2>&1
echo "random exit $? $(( $(date +%s) - T0 )) s"; grep -E "^\| (tf32tf32|halfhalf|auto) \| (1018|200) " $W/random/table.md
python3 $D/../cluster-2026-11-26/compare.py $W/random/results.json $W/base/results.json > $W/compare.txt
grep -E "^(gemm|batched)|routes changed|->" $W/compare.txt | head -30
gzip -f $W/random/results.json $W/base/results.json $W/pinned-*/results.json $W/*.log
