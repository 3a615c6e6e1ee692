#!/usr/bin/env bash
# Device call 7 (README.md here): every cost row refitted on call 6's calibration (but simt/dot, gemv/along_len_cta and
# gemv/lines, whose own calibrations have more of their cases), against the tree as landed (afba83a, carried as
# .baseline): planner GPU and CPU tests, the held-out sample (seed 26) for both trees.
set -o pipefail
export PYTHONUNBUFFERED=1
D=$PWD/bench/results/cluster-2026-11-26
W=/tmp/c7; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call7.tgz -C $W --exclude="*.png" .' EXIT
BUILD="python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real"
$BUILD --target /tmp/base-site -C build-dir=/tmp/bbase .baseline > $W/build-base.txt 2>&1 &
$BUILD -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"; wait; echo "baseline build done"
timeout 150 python3 -m pytest -q -p no:cacheprovider -rfEs -n 8 tests/test_planner_gpu.py \
  tests/test_planner.py > $W/tests.txt 2>&1
echo "tests exit $?"; tail -n 1 $W/tests.txt; grep -E "^FAILED|^ERROR" $W/tests.txt | head -8
PYTHONPATH=/tmp/base-site timeout 120 python3 -m bench.random --seed 26 --out $W/base-random --max-minutes 1.4 \
  --no-plots > $W/base-random.log 2>&1
echo "baseline random exit $?"; grep -E "^\| (tf32tf32|halfhalf|auto) \| (1018|200) " $W/base-random/table.md
timeout 120 python3 -m bench.random --seed 26 --out $W/random --max-minutes 1.4 > $W/random.log 2>&1
echo "random exit $?"; grep -E "^\| (tf32tf32|halfhalf|auto) \| (1018|200) " $W/random/table.md
python3 $D/compare.py $W/random/results.json $W/base-random/results.json | tee $W/compare.txt
gzip -f $W/random/results.json $W/base-random/results.json
