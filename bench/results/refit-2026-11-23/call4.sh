#!/usr/bin/env bash
# Device call 4: the GEMV kernels' FP64 accumulation without two-level spans (one FP64
# accumulator set) and with the thin operand staged in FP64 (along k): registers, the
# GEMV tests and memcheck, GEMV throughput beside cuBLAS, the held-out sample (seed 26),
# the whole GPU suite, and compute-sanitizer over the stream and graph tests.
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/w4; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call4.tgz -C $W .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"
LIB=$(python3 -c "import ecgemm,os;print(os.path.dirname(ecgemm.__file__))")/lib/libecgemm.so
cuobjdump -res-usage $LIB 2>/dev/null | grep -A1 -E "gemv|reduce_lanes" | grep -E "Function|REG" > $W/registers.txt
grep REG $W/registers.txt | sed -E 's/.*REG:([0-9]+) STACK:([0-9]+).*/\1 \2/' | tr '\n' ';'; echo
timeout 90 python3 -m bench --sections throughput --no-xla --no-plots --methods ecgemm_tf32tf32,ecgemm_fp32 \
  --shapes 1x4096x4096,4096x4096x1,2x4096x4096,4096x4096x4,1x16384x16384,16384x16384x1,4x16384x16384,16384x16384x4,1x1048576x64 \
  --out $W/gemv > $W/gemv.log 2>&1; echo "gemv bench exit $?"
grep -E "^\| (cuBLAS SGEMM|ecgemm tf32tf32) " $W/gemv/table.md | cut -d'|' -f2-6 | tr -s ' ' | paste - - 
timeout 150 python3 -m bench.random --seed 26 --out $W/random-seed26 --max-minutes 2 > $W/random.log 2>&1
echo "random exit $?"; grep "^| tf32tf32 | 1018\|^| halfhalf | 1018\|^| auto | 1018\|^| tf32tf32 | 200\|^| halfhalf | 200\|^| auto | 200" $W/random-seed26/table.md
timeout 200 python3 -m pytest -q -p no:cacheprovider -rfEs -n 8 tests -k "not short_of_memory" > $W/suite.txt 2>&1
echo "suite exit $?"; grep -E "^FAILED|passed|failed" $W/suite.txt | tail -6
(cd tests && timeout 60 compute-sanitizer --tool memcheck --error-exitcode 9 python3 -m pytest -q -p no:cacheprovider \
  test_gemv_gpu.py -k "exact_sum and tf32tf32 and N-N and (2-257-70001 or 4097-4-3000 or 16-1-10)" 2>&1 | tail -2) | tee $W/memcheck_gemv.txt
SEL="four_streams and (halfhalf-NT-64x65536x64 or auto-NT-1024x1024x1024 or tf32tf32-NN-64x8192x4096 or fp32-TN-64x8192x64) or capture_on_a_handle"
timeout 80 compute-sanitizer --tool memcheck --error-exitcode 9 python3 -m pytest -q -p no:cacheprovider \
  tests/test_streams_gpu.py -k "$SEL" > $W/sanitizer_memcheck.txt 2>&1
echo "streams memcheck exit $? $(grep -E 'ERROR SUMMARY|passed|failed' $W/sanitizer_memcheck.txt | tr '\n' ' ')"
