#!/usr/bin/env bash
# Device call 4 (README.md): call 3's new test failed on the 32-wide tile (its error about the lo·lo sum's) with h of
# 11 bits over 7 binades; truncation.py tells the Tensor Core's truncation of hi·hi sums from lo·lo, and the test
# (now h of 5 bits) runs again with the fused_mma tests. Reuses call 2's build directory where the machine is warm.
set -o pipefail
export PYTHONUNBUFFERED=1
D=$PWD/bench/results/chain-2026-11-28
W=/tmp/w4; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call4.tgz -C $W .' EXIT
T0=$(date +%s)
python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real \
  -C build-dir=/tmp/b2-new . > $W/build.txt 2>&1; echo "build exit $? $(( $(date +%s) - T0 )) s"; tail -3 $W/build.txt > $W/b.t && mv $W/b.t $W/build.txt
export PYTHONPATH=$PWD
(cd $D && timeout 60 python3 truncation.py > $W/truncation.md 2>&1); echo "truncation exit $? $(( $(date +%s) - T0 )) s"; cat $W/truncation.md
timeout 200 python3 -m pytest -q -p no:cacheprovider -rfE -n 8 tests/test_fused_mma_gpu.py > $W/tests.txt 2>&1
echo "tests exit $? $(( $(date +%s) - T0 )) s"; tail -n 1 $W/tests.txt; grep -E "^FAILED|^ERROR" $W/tests.txt | cut -c1-200 | head -12
