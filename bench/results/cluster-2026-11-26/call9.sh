#!/usr/bin/env bash
# Device call 9 (README.md here): the tree as landed (afba83a): the whole GPU suite, memcheck over the cluster
# reduction (cluster_check.py), bench.stress.
set -o pipefail
export PYTHONUNBUFFERED=1
D=$PWD/bench/results/cluster-2026-11-26
W=/tmp/c9; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call9.tgz -C $W .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"
timeout 220 python3 -m pytest -q -p no:cacheprovider -rfEs -n 8 tests -k "not short_of_memory" > $W/suite.txt 2>&1
echo "suite exit $?"; tail -n 1 $W/suite.txt; grep -E "^FAILED|^ERROR" $W/suite.txt | head -12
cd /tmp
timeout 90 compute-sanitizer --tool memcheck --error-exitcode 3 python3 $D/cluster_check.py > $W/memcheck.txt 2>&1
echo "memcheck exit $?"; tail -n 2 $W/memcheck.txt
cd - > /dev/null
timeout 30 python3 -m bench.stress --seconds 3 --out $W/stress > $W/stress.log 2>&1
echo "stress exit $?"; grep -E "^\| (none|32 MiB)" $W/stress/table.md | head -2
