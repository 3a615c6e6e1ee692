#!/usr/bin/env bash
# Device call 2 (README.md here): call 1's tree whole: the GPU suite, bench.stress, the accuracy suite, memcheck over
# the cluster reduction (../cluster-2026-11-26/cluster_check.py) and over the simt and gemv GPU tests.
set -o pipefail
export PYTHONUNBUFFERED=1
C=$PWD/bench/results/cluster-2026-11-26
W=/tmp/p2; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call2.tgz -C $W .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $? $(date +%T)"
timeout 200 python3 -m pytest -q -p no:cacheprovider -rfEs -n 8 tests -k "not short_of_memory" > $W/suite.txt 2>&1
echo "suite exit $?"; tail -n 1 $W/suite.txt; grep -E "^FAILED|^ERROR" $W/suite.txt | head -12
timeout 30 python3 -m bench.stress --seconds 3 --out $W/stress > $W/stress.log 2>&1
echo "stress exit $?"; grep -E "^\| (none|32 MiB)" $W/stress/table.md | head -2
timeout 90 python3 -m bench --sections accuracy --no-xla --max-minutes 1.2 --no-plots --out $W/accuracy \
  > $W/accuracy.md 2> $W/accuracy.log
echo "accuracy exit $?"; grep -A3 "^## Flags" $W/accuracy.md | head -4
echo "memcheck start $(date +%T)"
(cd /tmp && timeout 80 compute-sanitizer --tool memcheck --error-exitcode 3 python3 $C/cluster_check.py \
  > $W/memcheck.txt 2>&1); echo "memcheck cluster exit $?"; tail -n 2 $W/memcheck.txt
timeout 110 compute-sanitizer --tool memcheck --error-exitcode 3 python3 -m pytest -q -p no:cacheprovider -x \
  tests/test_gemv_gpu.py tests/test_simt_stream_gpu.py tests/test_simt_strips_gpu.py tests/test_simt_dot_gpu.py \
  > $W/memcheck-simt-gemv.txt 2>&1
echo "memcheck simt/gemv exit $?"; tail -n 3 $W/memcheck-simt-gemv.txt
echo "end $(date +%T)"
