#!/usr/bin/env bash
# Device call 5 (README.md here): the tree committed: the whole GPU suite, AUTO's gate (planner's
# routes), stress, the short-of-memory test alone.
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/c5; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call5.tgz -C $W .' EXIT
git log -1 --format=%H > $W/commit.txt 2>/dev/null
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"
timeout 330 python3 -m pytest -q -p no:cacheprovider -rfEs -n 12 -k "not short_of_memory" tests/ > $W/tests.txt 2>&1
echo "tests exit $?"; tail -1 $W/tests.txt; grep -E "^FAILED|^ERROR" $W/tests.txt | head -20
timeout 90 python3 -m pytest -q -p no:cacheprovider -rfEs tests/test_streams_gpu.py -k short_of_memory > $W/oom.txt 2>&1
echo "oom exit $?"; tail -1 $W/oom.txt
timeout 100 python3 -m bench.auto_gate --out $W/gate > $W/gate.log 2>&1
echo "gate exit $?"; grep -E "AUTO above" $W/gate/table.md
timeout 50 python3 -m bench.stress --seconds 4 --out $W/stress > $W/stress.log 2>&1
echo "stress exit $?"; grep -E "^\| (none|32 MiB)" $W/stress/table.md
