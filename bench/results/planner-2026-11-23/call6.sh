#!/usr/bin/env bash
# Device call 6: the final tree's stream-tile and planner tests (the stream tile's batched test now
# calls test_c_batched_gpu's helper).
set -o pipefail
W=/tmp/w6; mkdir -p $W
trap 'tar czf $OUT/call6.tgz -C $W .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"
timeout 150 python3 -m pytest -q -p no:cacheprovider -rfEs -n 6 tests/test_simt_stream_gpu.py tests/test_planner_gpu.py \
  tests/test_planner.py 2>&1 | tee $W/tests.txt | tail -3
