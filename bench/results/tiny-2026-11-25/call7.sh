#!/usr/bin/env bash
# Device call 7 (README.md here): the committed tree again (the planner's `consider` refactored, same
# plans): the accuracy suite, memcheck over the FP32 form's kernel, bench.stress.
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/t7; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call7.tgz -C $W .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"
timeout 130 python3 -m bench --sections accuracy --no-xla --max-minutes 1.8 --no-plots --out $W/accuracy > $W/accuracy.md 2> $W/accuracy.log
echo "accuracy exit $?"; grep -A3 "^## Flags" $W/accuracy.md | head -4
timeout 80 compute-sanitizer --tool memcheck --kernel-name kns=fused_mma_kernel \
  python3 -m pytest -q -p no:cacheprovider tests/test_fused_mma_fp32_gpu.py -k "alpha_beta and 40" > $W/memcheck.txt 2>&1
echo "memcheck exit $?"; grep -E "ERROR SUMMARY|passed|failed" $W/memcheck.txt | tail -2
timeout 45 python3 -m bench.stress --seconds 3 --out $W/stress > $W/stress.log 2>&1
echo "stress exit $?"; grep -E "^\| (none|32 MiB)" $W/stress/table.md
