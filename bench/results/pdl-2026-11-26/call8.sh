#!/usr/bin/env bash
# Device call 8 (README.md here): main as landed (every first kernel dependent, fused_mma's four plans priced alike):
# the whole GPU suite, the accuracy suite, bench.stress, memcheck over the gemv and simt-strips GPU tests.
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/p8; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call8.tgz -C $W .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $? $(date +%T)"
timeout 300 python3 -m pytest -q -p no:cacheprovider -rfEs -n 8 tests -k "not short_of_memory" > $W/suite.txt 2>&1
echo "suite exit $?"; tail -n 1 $W/suite.txt; grep -E "^FAILED|^ERROR" $W/suite.txt | head -12
timeout 90 python3 -m bench --sections accuracy --no-xla --max-minutes 1.2 --no-plots --out $W/accuracy \
  > $W/accuracy.md 2> $W/accuracy.log
echo "accuracy exit $?"; grep -A3 "^## Flags" $W/accuracy.md | head -4
timeout 30 python3 -m bench.stress --seconds 3 --out $W/stress > $W/stress.log 2>&1
echo "stress exit $?"; grep -E "^\| (none|32 MiB)" $W/stress/table.md | head -2
timeout 50 compute-sanitizer --tool memcheck --error-exitcode 3 python3 -m pytest -q -p no:cacheprovider \
  tests/test_simt_strips_gpu.py tests/test_streams_gpu.py -k "strips or reads_the_output" > $W/memcheck.txt 2>&1
echo "memcheck exit $?"; tail -n 2 $W/memcheck.txt
echo "end $(date +%T)"
