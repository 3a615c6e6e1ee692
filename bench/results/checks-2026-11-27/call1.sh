#!/usr/bin/env bash
# Device call 1 (README.md here): the checks the last session had no device time for, on its final tree (63b9633):
# every GPU test; compute-sanitizer memcheck over the class-map and copied-batch bit checks (both fused_wgmma
# files); bench.stress 10 s; the accuracy suite.
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/c1; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call1.tgz -C $W --exclude="*.png" --exclude="results.json*" .' EXIT
T0=$(date +%s)
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $? $(( $(date +%s) - T0 )) s"; tail -n 2 $W/build.txt > $W/build.t && mv $W/build.t $W/build.txt
timeout 300 python3 -m pytest -q -p no:cacheprovider -rfEs -n 8 tests > $W/tests.txt 2>&1
echo "tests exit $? $(( $(date +%s) - T0 )) s"; tail -n 1 $W/tests.txt; grep -E "^FAILED|^ERROR" $W/tests.txt | head -8
timeout 200 compute-sanitizer --tool memcheck --error-exitcode 9 --print-limit 5 python3 -m pytest -q -p no:cacheprovider \
  tests/test_fused_wgmma_gpu.py tests/test_fused_wgmma_narrow_gpu.py -k "(unaligned and tf32tf32) or copied or pointer_array" \
  > $W/memcheck.txt 2>&1
echo "memcheck exit $? $(( $(date +%s) - T0 )) s"; grep -E "passed|failed|ERROR SUMMARY" $W/memcheck.txt | tail -3
timeout 40 python3 -m bench.stress --seconds 10 --out $W/stress > $W/stress.txt 2>&1
echo "stress exit $? $(( $(date +%s) - T0 )) s"; grep -E "^\| (none|32 MiB)" $W/stress/table.md
timeout 150 python3 -m bench --sections accuracy --no-xla --max-minutes 2 --no-plots --out $W/accuracy > $W/accuracy.md 2> $W/accuracy.log
echo "accuracy exit $? $(( $(date +%s) - T0 )) s"; grep -A6 "^## Flags" $W/accuracy.md | head -8
