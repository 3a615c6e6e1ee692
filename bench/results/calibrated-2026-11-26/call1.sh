#!/usr/bin/env bash
# Device call 1 (README.md here): main as landed (e979d52). A fresh calibration sample (seed 27, 1000 shapes and 300
# batches, the three corrected modes) with every family pinned, on the tree whose first kernels are programmatic
# dependents (every cost row predates that); then compute-sanitizer memcheck over the gemv, simt, fused_wgmma and
# streams GPU tests with four workers and -rf, to name the test that failed under the sanitizer in
# pdl-2026-11-26 call 11.
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/k1; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call1.tgz -C $W .' EXIT
T0=$(date +%s)
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $? $(( $(date +%s) - T0 )) s"
timeout 330 python3 -m bench.random --seed 27 --count 1000 --batched-count 300 --modes tf32tf32,halfhalf,auto \
  --families simt,gemv,planes,fused_wgmma,fused_mma:64,fused_mma:32,fused_mma:64/unsplit,fused_mma:32/unsplit,fused_mma/fp32 \
  --out $W/calibration --max-minutes 5.0 --no-plots > $W/calibration.log 2>&1
echo "calibration exit $? $(( $(date +%s) - T0 )) s"; tail -3 $W/calibration.log
gzip -f $W/calibration/results.json $W/calibration.log
LEFT=$(( 575 - ($(date +%s) - T0) ))
echo "memcheck limit $LEFT s"
timeout $LEFT compute-sanitizer --tool memcheck --error-exitcode 3 --print-limit 20 python3 -m pytest -v -rf \
  -p no:cacheprovider -n 4 tests/test_gemv_gpu.py tests/test_simt_stream_gpu.py tests/test_simt_strips_gpu.py \
  tests/test_simt_dot_gpu.py tests/test_simt_slim_gpu.py tests/test_fused_wgmma_gpu.py tests/test_streams_gpu.py \
  -k "not short_of_memory" > $W/memcheck.txt 2>&1
echo "memcheck exit $? $(( $(date +%s) - T0 )) s"; grep -E "passed|failed" $W/memcheck.txt | tail -3
grep -E "FAILED|Invalid|Program hit" $W/memcheck.txt | sort | uniq -c | head -20
grep "ERROR SUMMARY" $W/memcheck.txt | sort | uniq -c
gzip -f $W/memcheck.txt
