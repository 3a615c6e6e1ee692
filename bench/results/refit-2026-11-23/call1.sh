#!/usr/bin/env bash
# Device call 1 (README.md here): build; the cost model's calibration on the current tiles
# (slim, dot, batched GEMV): bench.random's sample (seed 25) with every kernel family pinned
# in each mode; then the stream and graph tests.
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/w1; mkdir -p $W
trap 'tar czf $OUT/call1.tgz -C $W .' EXIT
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit,memory.total --format=csv > $W/gpu.txt
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"; tail -1 $W/build.txt
timeout 400 python3 -m bench.random --families simt,gemv,planes,fused_wgmma,fused_mma \
  --out $W/calibration --max-minutes 6.2 --no-plots > $W/calibration.log 2>&1; echo "calibration exit $?"
tail -3 $W/calibration.log
timeout 60 python3 -m pytest -q -p no:cacheprovider -rfEs -n 8 tests/test_streams_gpu.py -k "not short_of_memory" \
  > $W/streams.txt 2>&1; echo "streams exit $?"; tail -2 $W/streams.txt
