#!/usr/bin/env bash
# Device call 4 (README.md here): the handle holds the planner's DeviceInfo (one source for the device's fields,
# handle.hpp) -- the C ABI, batched, planner, streams and Python GPU tests on it.
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/n4; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call4.tgz -C $W .' EXIT
T0=$(date +%s)
python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real \
  -C build-dir=/tmp/b . > $W/build.txt 2>&1
echo "build exit $? $(( $(date +%s) - T0 )) s"; tail -2 $W/build.txt > $W/b.t && mv $W/b.t $W/build.txt
timeout 200 python3 -m pytest -q -n 8 -p no:cacheprovider tests/test_c_abi_gpu.py tests/test_c_batched_gpu.py \
  tests/test_planner_gpu.py tests/test_streams_gpu.py tests/test_python_gpu.py tests/test_gpu_properties.py > $W/tests.txt 2>&1
echo "tests exit $? $(( $(date +%s) - T0 )) s"; tail -3 $W/tests.txt
