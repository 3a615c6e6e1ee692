#!/usr/bin/env bash
# Device call 4 (README.md): fused_mma's 32-wide tile with its k-steps unrolled (experiment switch ECGEMM_EXP_UNROLL)
# against rolled: unroll_ab.py on call 2's 96 products in three modes; output hashes of the fused_mma cases under both;
# the fused_mma and AUTO GPU tests unrolled; memcheck on a few of them.
set -o pipefail
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
D=bench/results/tiles-2026-12-02
T0=$(date +%s)
python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real \
  -C build-dir=/tmp/b1 . > $OUT/build.txt 2>&1; echo "build exit $? $(( $(date +%s) - T0 )) s"; tail -2 $OUT/build.txt
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv,noheader
for u in 0 1; do ECGEMM_EXP_UNROLL=$u timeout 90 python3 tools/device.py hash --family fused_mma --log hash$u.txt > /dev/null 2>&1; done
cmp $OUT/hash0.txt $OUT/hash1.txt && echo "hash: unrolled = rolled ($(wc -l < $OUT/hash0.txt) lines)"
echo "hash done $(( $(date +%s) - T0 )) s"
timeout 290 python3 $D/unroll_ab.py $OUT/unroll_ab.jsonl 2>&1 | tee $OUT/unroll_ab.txt | cut -c1-190 | awk 'NR%6==1'
echo "ab done $(( $(date +%s) - T0 )) s"
ECGEMM_EXP_UNROLL=1 timeout 100 python3 -m pytest -q -p no:cacheprovider -rfE -n 8 tests/test_fused_mma_gpu.py \
  tests/test_auto_gpu.py tests/test_c_batched_gpu.py > $OUT/tests.txt 2>&1
echo "tests exit $? $(( $(date +%s) - T0 )) s"; tail -n 1 $OUT/tests.txt; grep -E "^FAILED|^ERROR" $OUT/tests.txt | cut -c1-200 | head
ECGEMM_EXP_UNROLL=1 timeout 60 compute-sanitizer --tool memcheck --print-limit 5 python3 -m pytest -q -p no:cacheprovider -x \
  tests/test_fused_mma_gpu.py -k "test_cluster_reduced_splits or test_nan_inf" > $OUT/memcheck.txt 2>&1; echo "memcheck exit $?"; tail -n 2 $OUT/memcheck.txt
echo "all done $(( $(date +%s) - T0 )) s"
