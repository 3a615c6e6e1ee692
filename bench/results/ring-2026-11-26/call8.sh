#!/usr/bin/env bash
# Device call 8 (README.md here): simt's thin tiles as in call 7, with four rows a thread sharing each shared-memory
# read of the thin operand (thin.cu: ThinShape), single products with a side <= 32 and k >= 256, against main
# (95e4d3e, carried as .baseline): the simt GPU tests; simt pinned on the calibration sample's cases with a side
# <= 32 (seed 27) in both builds (thin_ab.py); the held-out sample (seed 26), main first.
set -o pipefail
export PYTHONUNBUFFERED=1
D=$PWD/bench/results/ring-2026-11-26
W=/tmp/r8; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call8.tgz -C $W --exclude="*.png" .' EXIT
T0=$(date +%s)
BUILD="python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real"
$BUILD --target /tmp/base-site -C build-dir=/tmp/bbase .baseline > $W/build-base.txt 2>&1 &
$BUILD -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"; wait; echo "builds done $(( $(date +%s) - T0 )) s"; grep -i "spill" $W/build.txt | grep thin | head -3
timeout 170 python3 -m pytest -q -p no:cacheprovider -rfEs -n 8 tests/test_simt_thin_gpu.py tests/test_simt_slim_gpu.py \
  tests/test_simt_stream_gpu.py tests/test_planner_gpu.py tests/test_planner.py > $W/tests.txt 2>&1
echo "tests exit $? $(( $(date +%s) - T0 )) s"; tail -n 1 $W/tests.txt; grep -E "^FAILED|^ERROR" $W/tests.txt | head -8
PINS="--seed 27 --count 1000 --batched-count 0 --max-width 32 --modes tf32tf32 --families simt --max-minutes 0.9 --no-plots"
PYTHONPATH=/tmp/base-site timeout 60 python3 -m bench.random $PINS --out $W/pinned-base > $W/pinned-base.log 2>&1
echo "pinned-base exit $? $(( $(date +%s) - T0 )) s"
timeout 60 python3 -m bench.random $PINS --out $W/pinned-new > $W/pinned-new.log 2>&1
echo "pinned-new exit $? $(( $(date +%s) - T0 )) s"
python3 $D/thin_ab.py $W/pinned-new/results.json $W/pinned-base/results.json > $W/thin_ab.txt
cat $W/thin_ab.txt | head -40
PYTHONPATH=/tmp/base-site timeout 75 python3 -m bench.random --seed 26 --out $W/base --max-minutes 1.1 --no-plots > $W/base.log 2>&1
echo "base exit $? $(( $(date +%s) - T0 )) s"; grep -E "^\| (tf32tf32|halfhalf|auto) \| (1018|200) " $W/base/table.md
timeout 75 python3 -m bench.random --seed 26 --out $W/random --max-minutes 1.1 --no-plots > $W/random.log 2>&1
echo "random exit $? $(( $(date +%s) - T0 )) s"; grep -E "^\| (tf32tf32|halfhalf|auto) \| (1018|200) " $W/random/table.md
python3 $D/../cluster-2026-11-26/compare.py $W/random/results.json $W/base/results.json > $W/compare.txt
grep -E "^(gemm|batched)|routes changed|->" $W/compare.txt | head -30
gzip -f $W/random/results.json $W/base/results.json $W/pinned-*/results.json $W/*.log
