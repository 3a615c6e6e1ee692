#!/usr/bin/env bash
# Device call 5: main's tree (FP32 GEMV kernels; simt's cost rows refitted alone): the
# held-out sample (seed 26) and GEMV throughput beside cuBLAS, for the record of what landed.
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/w5; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call5.tgz -C $W .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"
timeout 90 python3 -m bench --sections throughput --no-xla --no-plots --methods ecgemm_tf32tf32,ecgemm_fp32 \
  --shapes 1x4096x4096,4096x4096x1,2x4096x4096,4096x4096x4,1x16384x16384,16384x16384x1,4x16384x16384,16384x16384x4,1x1048576x64 \
  --out $W/gemv > $W/gemv.log 2>&1; echo "gemv bench exit $?"
grep -E "^\| (cuBLAS SGEMM|ecgemm tf32tf32) " $W/gemv/table.md | cut -d'|' -f2-6 | tr -s ' ' | paste - -
timeout 150 python3 -m bench.random --seed 26 --out $W/random-seed26 --max-minutes 2 > $W/random.log 2>&1
echo "random exit $?"; grep "^| tf32tf32 | 1018\|^| halfhalf | 1018\|^| auto | 1018\|^| tf32tf32 | 200\|^| halfhalf | 200\|^| auto | 200" $W/random-seed26/table.md
timeout 120 python3 -m pytest -q -p no:cacheprovider -rfEs -n 8 tests/test_gemv_gpu.py tests/test_planner_gpu.py \
  tests/test_simt_dot_gpu.py tests/test_simt_slim_gpu.py 2>&1 | tail -2
