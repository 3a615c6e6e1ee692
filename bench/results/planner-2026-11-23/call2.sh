#!/usr/bin/env bash
# Device call 2 (README.md here): build with the cost-model planner (coefficients fitted to
# call 1's calibration); the whole GPU suite; the random sweep on a held-out sample (seed 26:
# the fit saw seed 25); big squares through bench's throughput section.
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/w2; mkdir -p $W
trap 'tar czf $OUT/call2.tgz -C $W .' EXIT
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit,memory.total --format=csv > $W/gpu.txt
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"; tail -1 $W/build.txt
timeout 200 python3 -m pytest -q -p no:cacheprovider -rfEs -n 6 tests 2>&1 | tee $W/suite.txt | tail -15
timeout 190 python3 -m bench.random --seed 26 --out $W/random-seed26 --max-minutes 2.8 > $W/random.log 2>&1
echo "random exit $?"; grep -A5 "^| mode" $W/random-seed26/table.md | head -6
timeout 100 python3 -m bench --shapes 4096x4096x4096,8192x8192x8192,16384x16384x16384 --sections throughput \
  --no-xla --no-plots --methods ecgemm_tf32tf32,ecgemm_halfhalf,ecgemm_auto --out $W/squares > $W/squares.log 2>&1
echo "squares exit $?"; grep -E "^\|" $W/squares/table.md | head -14
