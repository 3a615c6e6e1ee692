#!/usr/bin/env bash
# On the GPU machine, the end-of-session check: install (sm_90a), the kernel suites, the
# probe on the shapes the plane-route epilogue decides, bench's shape sweep, bench.auto,
# bench.batched and compute-sanitizer on the fused mma.sync family.
# $OUT/final.tgz: pytest.txt, probe.txt, sanitizer.txt, shapes/, auto/, batched/.
set -o pipefail
. "$(dirname "$0")/device_install.sh"
pack() { tar czf "$OUT/final.tgz" -C "$OUT" --exclude final.tgz . ; }
trap pack EXIT
timeout 200 python3 -m pytest -q -p no:cacheprovider -rfEs tests/test_auto_gpu.py \
  tests/test_c_abi_gpu.py tests/test_fused_gpu.py tests/test_gemv_gpu.py tests/test_c_batched_gpu.py \
  tests/test_sm80_fused_gpu.py tests/test_python_gpu.py 2>&1 | tee "$OUT/pytest.txt" | tail -4
timeout 100 python3 tools/probe.py --modes tf32tf32,halfhalf,auto \
  --shapes "8192,64,8192;8192,8192,8192;64,8192,8192;2048,2048,2048;4096,4096,4096" 2>&1 | tee "$OUT/probe.txt"
timeout 240 python3 -m bench --profile shapes --sections throughput --no-xla --no-plots \
  --methods ecgemm_tf32tf32,ecgemm_halfhalf --out "$OUT/shapes" 2> /tmp/shapes_log.txt | grep "×" | tail -30
timeout 100 python3 -m bench.batched --out "$OUT/batched" 2> /tmp/batched_log.txt
timeout 150 python3 -m bench.auto --sizes 4096,8192 --out "$OUT/auto" 2> /tmp/auto_log.txt | head -16
for tool in memcheck racecheck; do
  timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 python3 -m pytest -q -p no:cacheprovider \
    tests/test_sm80_fused_gpu.py -k "halfhalf and (130-257-300 or 257-129) and N-T or tf32tf32 and test_batches and 7-33" \
    2>&1 | tail -3
  echo "$tool exit ${PIPESTATUS[0]}"
done 2>&1 | tee "$OUT/sanitizer.txt"
