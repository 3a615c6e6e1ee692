#!/usr/bin/env bash
# Device call 13 (README.md here): the tree with call 12's GEMV change whole: GPU suite, memcheck over the GEMVs of
# bits.py (unaligned along the long side: ragged ends, one to four thin columns, batches, both forms), bench.stress.
set -o pipefail
export PYTHONUNBUFFERED=1
D=$PWD/bench/results/fused-latency-2026-11-26
W=/tmp/f13; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call13.tgz -C $W --exclude="*.pt" .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"
timeout 220 python3 -m pytest -q -p no:cacheprovider -rfEs -n 8 tests -k "not short_of_memory" > $W/suite.txt 2>&1
echo "suite exit $?"; tail -n 1 $W/suite.txt; grep -E "^FAILED|^ERROR" $W/suite.txt | head -12
cd /tmp && timeout 200 compute-sanitizer --tool memcheck --error-exitcode 9 python3 $D/bits.py save $W/m.pt gemv \
  > $W/memcheck.txt 2>&1
echo "memcheck exit $?"; grep -E "ERROR SUMMARY|saved" $W/memcheck.txt | tail -n 2; cd - > /dev/null
timeout 30 python3 -m bench.stress --seconds 3 --out $W/stress > $W/stress.log 2>&1
echo "stress exit $?"; grep -E "^\| (none|32 MiB)" $W/stress/table.md | head -2
