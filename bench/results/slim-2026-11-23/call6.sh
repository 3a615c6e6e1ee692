#!/usr/bin/env bash
# Device call 6: call 5's suite failed only in the new batched GEMV tests' helper (a 2-D
# transpose applied to stacks); the GEMV tests again, and memcheck over its batches.
set -o pipefail
W=/tmp/s6; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call6.tgz -C $W .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"
timeout 200 python3 -m pytest -q -p no:cacheprovider -rfEs -n 8 tests/test_gemv_gpu.py tests/test_planner.py 2>&1 | tee $W/tests.txt | tail -3
(cd tests && timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 python3 -m pytest -q -p no:cacheprovider \
  test_gemv_gpu.py -k "batches and fp32 and (N-T or T-N)" 2>&1 | tail -3) | tee $W/memcheck.txt
