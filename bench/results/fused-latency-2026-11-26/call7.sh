#!/usr/bin/env bash
# Device call 7 (README.md here): fused_mma's four cost rows refitted on call 6's calibration sample, against the
# tree before the refit (ab56dab, carried as .baseline): planner, fused_mma and streams GPU tests; the held-out
# sample (seed 26) for both trees on this machine.
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/f7; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call7.tgz -C $W --exclude="*.png" .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index --target /tmp/base-site \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bbase .baseline > $W/build-base.txt 2>&1 &
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"; wait; echo "baseline build done"
timeout 200 python3 -m pytest -q -p no:cacheprovider -rfEs -n 8 tests/test_planner_gpu.py tests/test_fused_mma_gpu.py \
  tests/test_streams_gpu.py > $W/tests.txt 2>&1
echo "tests exit $?"; tail -n 1 $W/tests.txt; grep -E "^FAILED|^ERROR" $W/tests.txt | head -8
PYTHONPATH=/tmp/base-site timeout 150 python3 -m bench.random --seed 26 --out $W/base-random --max-minutes 1.4 \
  --no-plots > $W/base-random.log 2>&1
echo "baseline random exit $?"; grep -E "^\| (tf32tf32|halfhalf|auto) \| (1018|200) " $W/base-random/table.md
timeout 150 python3 -m bench.random --seed 26 --out $W/random --max-minutes 1.4 --no-plots > $W/random.log 2>&1
echo "random exit $?"; grep -E "^\| (tf32tf32|halfhalf|auto) \| (1018|200) " $W/random/table.md
