#!/usr/bin/env bash
# Device call 6 (README.md here): the committed tree (ad5f9b5): the accuracy suite, the held-out
# random sample on the planner's routes (README's table), memcheck over the split-K reducers.
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/c6; rm -rf $W; mkdir -p $W
trap 'gzip -f $W/random/results.json; tar czf $OUT/call6.tgz -C $W .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"
timeout 150 python3 -m bench --sections accuracy --no-xla --max-minutes 2 --no-plots --out $W/accuracy > $W/accuracy.md 2> $W/accuracy.log
echo "accuracy exit $?"; grep -A3 "^## Flags" $W/accuracy.md | head -4
timeout 200 python3 -m bench.random --seed 26 --max-minutes 3 --out $W/random > $W/random.md 2> $W/random.log
echo "random exit $?"; grep -E "^\| (tf32tf32|halfhalf|auto) \| [0-9]" $W/random/table.md | head -6
timeout 100 compute-sanitizer --tool memcheck --kernel-name regex:reduce_ \
  python3 -m pytest -q -p no:cacheprovider tests/test_fused_mma_gpu.py -k "long_k" > $W/memcheck.txt 2>&1
echo "memcheck exit $?"; grep -E "ERROR SUMMARY|passed|failed" $W/memcheck.txt | tail -2
