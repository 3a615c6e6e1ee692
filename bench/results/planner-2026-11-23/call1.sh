#!/usr/bin/env bash
# Device call 1 (README.md here): build; the simt family's new streaming tile under its GPU
# tests; the cost model's calibration: bench.random's sample (seed 25, as random-2026-11-23)
# with every kernel family pinned in each mode, beside the routes of this build's planner
# (still the rule table of random-2026-11-23).
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/w1; mkdir -p $W
trap 'tar czf $OUT/call1.tgz -C $W .' EXIT
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit,memory.total --format=csv > $W/gpu.txt
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"; tail -2 $W/build.txt
timeout 150 python3 -m pytest -q -p no:cacheprovider -rfEs -n 4 tests/test_simt_stream_gpu.py \
  tests/test_streams_gpu.py 2>&1 | tee $W/simt_tests.txt | tail -8
timeout 420 python3 -m bench.random --families simt,gemv,planes,fused_wgmma,fused_mma \
  --out $W/calibration --max-minutes 6.5 --no-plots > $W/calibration.log 2>&1; echo "calibration exit $?"
tail -3 $W/calibration.log
