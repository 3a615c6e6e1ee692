#!/usr/bin/env bash
# Device call 5 (README.md here): the tree to land (call 4's, the slot-size function written as ifs and comments)
# on every GPU test, and bench.stress 10 s.
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/c5; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call5.tgz -C $W .' EXIT
T0=$(date +%s)
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $? $(( $(date +%s) - T0 )) s"; tail -n 2 $W/build.txt > $W/build.t && mv $W/build.t $W/build.txt
timeout 280 python3 -m pytest -q -p no:cacheprovider -rfEs -n 8 tests > $W/tests.txt 2>&1
echo "tests exit $? $(( $(date +%s) - T0 )) s"; tail -n 1 $W/tests.txt; grep -E "^FAILED|^ERROR" $W/tests.txt | head -8
timeout 40 python3 -m bench.stress --seconds 10 --out $W/stress > $W/stress.txt 2>&1
echo "stress exit $? $(( $(date +%s) - T0 )) s"; grep -E "^\| (none|32 MiB)" $W/stress/table.md
