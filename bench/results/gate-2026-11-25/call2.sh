#!/usr/bin/env bash
# Device call 2 (README.md here): family plans split long k to keep the accuracy bound instead of
# being dropped by the planner (kMaxChainK in splitk_plan.hpp). Build; the planner's GPU tests and
# the fused/planes accuracy tests; route times (GPU time per route, kernels, cuBLAS) on the held-out
# shapes the change moves and on the narrow and small-k classes still missed; memcheck over the
# split-K reducers.
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/g2; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call2.tgz -C $W .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"
timeout 150 python3 -m pytest -q -p no:cacheprovider -rfEs -n 8 tests/test_planner_gpu.py tests/test_planner.py \
  tests/test_fused_wgmma_gpu.py > $W/tests.txt 2>&1
echo "tests exit $?"; tail -1 $W/tests.txt; grep -E "^FAILED|^ERROR" $W/tests.txt | head
RT="python3 tools/device.py route-times --modes tf32tf32 --routes default,fused_mma,planes,fused_wgmma,simt --env ECGEMM_FAMILY=fused_mma:32"
# m,k,n by layout: the plans kMaxChainK moves (first line of each), then narrow long-k, then small-k misses
timeout 100 $RT --layouts TT --shapes "3360,12554,158;2406,15001,134;15731,6164,28;20,2582,14679;4717,35,178" > $W/rt-TT.txt 2>&1
echo "TT exit $?"
timeout 100 $RT --layouts NT --shapes "2130,12336,830;7297,10333,124;1812,12430,459;636,10833,2971;41,114,3080" > $W/rt-NT.txt 2>&1
echo "NT exit $?"
timeout 100 $RT --layouts TN --shapes "169,11194,3488;9001,2785,19;5619,2343,9;1371,124,358;433,168,232;446,56,4753" > $W/rt-TN.txt 2>&1
echo "TN exit $?"
timeout 100 $RT --layouts NN --shapes "16294,5899,104;18,8986,1930;5094,72,10;7605,117,72;275,130,1178" > $W/rt-NN.txt 2>&1
echo "NN exit $?"
grep -hE "cublas|  tf32tf32 " $W/rt-*.txt | cut -c1-75
timeout 120 compute-sanitizer --tool memcheck --kernel-name kns=reduce_ \
  python3 -m pytest -q -p no:cacheprovider tests/test_fused_mma_gpu.py tests/test_simt_stream_gpu.py \
  -k "long_k or (tile64 and batches)" > $W/memcheck.txt 2>&1
echo "memcheck exit $?"; grep -E "ERROR SUMMARY|passed|failed" $W/memcheck.txt | tail -3
