#!/usr/bin/env bash
# Device call 3: the GEMV family accumulating in FP64 (gemv.cu; FP64 split-K partials,
# SplitOrder::kLanes) with simt's rows refitted alone (cost_coefficients.inc): registers,
# the GEMV tests (the new exact-rounding test included) and memcheck over them, GEMV
# throughput beside cuBLAS, and the held-out sample (seed 26) again.
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/w3; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call3.tgz -C $W .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"
LIB=$(python3 -c "import ecgemm,os;print(os.path.dirname(ecgemm.__file__))")/lib/libecgemm.so
cuobjdump -res-usage $LIB 2>/dev/null | grep -A1 -E "gemv|reduce_lanes" | grep -E "Function|REG" > $W/registers.txt
grep -c "STACK:0" $W/registers.txt; grep -v "STACK:0" $W/registers.txt | grep REG | head -3
timeout 200 python3 -m pytest -q -p no:cacheprovider -rfEs -n 8 tests/test_gemv_gpu.py tests/test_planner_gpu.py \
  tests/test_simt_dot_gpu.py 2>&1 | tee $W/tests.txt | tail -3
(cd tests && timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 python3 -m pytest -q -p no:cacheprovider \
  test_gemv_gpu.py -k "exact_sum and (2-257-70001 or 1-2-10425 or 4097-4-3000) or split_k_within or batch_forms" 2>&1 | tail -3) \
  | tee $W/memcheck.txt
timeout 90 python3 -m bench --sections throughput --no-xla --no-plots --methods ecgemm_tf32tf32,ecgemm_fp32 \
  --shapes 1x4096x4096,4096x4096x1,2x4096x4096,4096x4096x4,1x16384x16384,16384x16384x1,4x16384x16384,1x1048576x64 \
  --out $W/gemv > $W/gemv.log 2>&1; echo "gemv bench exit $?"
grep -E "^\| (cuBLAS SGEMM|ecgemm tf32tf32) " $W/gemv/table.md | cut -d'|' -f2-6
timeout 220 python3 -m bench.random --seed 26 --out $W/random-seed26 --max-minutes 3 > $W/random.log 2>&1
echo "random exit $?"; grep "^| tf32tf32 | 1018\|^| halfhalf | 1018\|^| auto | 1018\|^| tf32tf32 | 200\|^| halfhalf | 200\|^| auto | 200" $W/random-seed26/table.md
