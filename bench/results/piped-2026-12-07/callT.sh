#!/usr/bin/env bash
# Device call T (README.md): the dot tile's tests after call S (its products pinned to "simt:dot", since plain
# "simt" may now take a piped tile at 28-32 outputs; its plan test accepts a piped tile priced below it), with the
# planner's and the piped tiles' GPU tests.
set -o pipefail
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
T0=$(date +%s)
python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real \
  -C build-dir=/tmp/b1 . > $OUT/build.txt 2>&1; echo "build exit $? $(( $(date +%s) - T0 )) s"
timeout 200 python3 -m pytest -q -p no:cacheprovider -rfE -n 12 tests/test_simt_dot_gpu.py tests/test_planner_gpu.py \
  tests/test_simt_piped_gpu.py tests/test_simt_stream_gpu.py tests/test_simt_strips_gpu.py > $OUT/tests.txt 2>&1
echo "tests exit $? $(( $(date +%s) - T0 )) s"; tail -n 1 $OUT/tests.txt; grep -E "^FAILED|^ERROR" $OUT/tests.txt | cut -c1-220 | head
