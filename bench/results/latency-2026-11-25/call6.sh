#!/usr/bin/env bash
# Device call 6 (README.md here): the strip tile offered to single products with k <= 32 (it was
# for batches only). Build this tree and main's (26fe1ce, carried as .baseline); the simt
# stream/strip, fused_mma and planner GPU tests; the held-out sample for both trees; memcheck over
# fused_mma's 32-wide kernels and the strip kernel.
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/l6; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call6.tgz -C $W .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index --target /tmp/base-site \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bbase .baseline > $W/build-base.txt 2>&1
echo "baseline build exit $?"
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"
timeout 150 python3 -m pytest -q -p no:cacheprovider -rfEs -n 8 tests/test_simt_strips_gpu.py \
  tests/test_simt_stream_gpu.py tests/test_fused_mma_gpu.py tests/test_planner_gpu.py > $W/tests.txt 2>&1
echo "tests exit $?"; tail -1 $W/tests.txt; grep -E "^FAILED|^ERROR" $W/tests.txt | head -10
PYTHONPATH=/tmp/base-site timeout 150 python3 -m bench.random --seed 26 --out $W/base-seed26 --max-minutes 2.2 \
  --no-plots > $W/base.log 2>&1
echo "baseline random exit $?"; grep "^| tf32tf32 | 1018\|^| halfhalf | 1018\|^| auto | 1018\|^| tf32tf32 | 200\|^| halfhalf | 200\|^| auto | 200" $W/base-seed26/table.md
timeout 150 python3 -m bench.random --seed 26 --out $W/random-seed26 --max-minutes 2.2 --no-plots > $W/random.log 2>&1
echo "random exit $?"; grep "^| tf32tf32 | 1018\|^| halfhalf | 1018\|^| auto | 1018\|^| tf32tf32 | 200\|^| halfhalf | 200\|^| auto | 200" $W/random-seed26/table.md
timeout 150 compute-sanitizer --tool memcheck --kernel-name kns=fused_mma_kernel --kernel-name kns=simt_strip_kernel \
  python3 -m pytest -q -p no:cacheprovider tests/test_fused_mma_gpu.py tests/test_simt_strips_gpu.py \
  -k "(tile32 and (batches or nan_inf)) or one_small_product or alpha_beta" > $W/memcheck.txt 2>&1
echo "memcheck exit $?"; grep -E "ERROR SUMMARY|passed|failed" $W/memcheck.txt | tail -3
