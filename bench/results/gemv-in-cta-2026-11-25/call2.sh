#!/usr/bin/env bash
# Device call 2 (README.md here): call 1's rules narrowed to where they ran faster: the split inside the CTA only
# where the large operand is under kLatencyBytes (6 MB) and it leaves no split across CTAs (along k: one thin column,
# replacing a split); the dot-product test on urand(0, 1). The GPU tests it touches; racecheck and memcheck over
# sanitize.py (every in-CTA form); ab.py over shapes.txt as in call 1; the held-out sample (seed 26).
set -o pipefail
export PYTHONUNBUFFERED=1
D=$PWD/bench/results/gemv-in-cta-2026-11-25
AB=$PWD/bench/results/gemv-2026-11-25/ab.py
W=/tmp/c2; rm -rf $W; mkdir -p $W
trap 'gzip -f $W/random/results.json; tar czf $OUT/call2.tgz -C $W .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"
timeout 150 python3 -m pytest -q -p no:cacheprovider -rfEs -n 12 tests/test_gemv_gpu.py tests/test_planner.py \
  tests/test_planner_gpu.py tests/test_streams_gpu.py tests/test_simt_stream_gpu.py tests/test_c_batched_gpu.py > $W/tests.txt 2>&1
echo "tests exit $?"; tail -n 1 $W/tests.txt; grep -E "^FAILED|^ERROR" $W/tests.txt | head -12
for tool in racecheck memcheck; do
  (cd /tmp && timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 python3 $D/sanitize.py > $W/$tool.txt 2>&1)
  echo "$tool exit $?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|worst" $W/$tool.txt | tail -n 3
done
(cd /tmp && timeout 120 python3 $AB $D/shapes.txt $W/ab.json - gemv gemv:wide fused_mma:32 > $W/ab.txt 2> $W/ab.err)
echo "ab exit $?"; tail -n 3 $W/ab.err
timeout 150 python3 -m bench.random --seed 26 --max-minutes 2 --out $W/random > $W/random.md 2> $W/random.log
echo "random exit $?"; grep -E "^\| (tf32tf32|halfhalf|auto) \| [0-9]" $W/random/table.md | head -6
