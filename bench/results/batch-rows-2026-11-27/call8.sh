#!/usr/bin/env bash
# Device call 8 (README.md here): every GPU test on the final tree (call 7's library).
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/r8; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call8.tgz -C $W .' EXIT
T0=$(date +%s)
python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real \
  -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $? $(( $(date +%s) - T0 )) s"; tail -2 $W/build.txt > $W/b.t && mv $W/b.t $W/build.txt
timeout 420 python3 -m pytest -q -p no:cacheprovider -rfE -n 8 tests > $W/tests.txt 2>&1
echo "tests exit $? $(( $(date +%s) - T0 )) s"; tail -n 1 $W/tests.txt; grep -E "^FAILED|^ERROR" $W/tests.txt | head -8
grep -B5 -A40 "^_____" $W/tests.txt | head -80
