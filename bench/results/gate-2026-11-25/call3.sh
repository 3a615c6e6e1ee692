#!/usr/bin/env bash
# Device call 3 (README.md here): a dot product (1 x k x 1) stored with ld 1 takes the GEMV kernel
# along k (gemv_layout reads the stride). Build; the GEMV and planner tests; route times on the
# held-out sample's dot products (default: the new GEMV plan; fused_mma: main's route) and cuBLAS.
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/g3; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call3.tgz -C $W .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"
timeout 200 python3 -m pytest -q -p no:cacheprovider -rfEs -n 8 tests/test_gemv_gpu.py tests/test_planner.py \
  tests/test_planner_gpu.py > $W/tests.txt 2>&1
echo "tests exit $?"; tail -1 $W/tests.txt; grep -E "^FAILED|^ERROR" $W/tests.txt | head
for lay in NN TT NT TN; do
  timeout 60 python3 tools/device.py route-times --modes tf32tf32,fp32 --routes default,fused_mma,gemv,simt \
    --layouts $lay --shapes "1,2066,1;1,1047,1;1,15868,1;1,4358,1;1,1294,1;1,29,1" > $W/rt-dot-$lay.txt 2>&1
  echo "$lay exit $?"
done
grep -hE "cublas|  tf32tf32 " $W/rt-dot-NN.txt | cut -c1-75
