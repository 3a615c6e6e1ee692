#!/usr/bin/env bash
# Device call 2 (README.md here): as call 1, with the data oriented as the library sees it and two timing probes; build with the issue-26 prototype (per-(row, 64-k block)
# scales of op(A) in the split pass, applied at promotion); time it against halfhalf, AUTO,
# tf32tf32 and SGEMM; residuals on urand, rows scaled 2^+-60 and rows drifting along k;
# the planes/wgmma GPU tests of the plain path.
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/p2; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call2.tgz -C $W .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"
timeout 240 python3 bench/results/proto-blocks-2026-11-24/proto_blocks.py $W > $W/proto.log 2>&1
echo "proto exit $?"; cat $W/proto.log | tail -20
timeout 150 python3 -m pytest -q -p no:cacheprovider -rfEs -n 8 tests/test_fused_wgmma_gpu.py tests/test_auto_gpu.py tests/test_planner_gpu.py > $W/tests.txt 2>&1
echo "tests exit $?"; tail -3 $W/tests.txt
