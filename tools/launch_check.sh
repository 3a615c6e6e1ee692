#!/usr/bin/env bash
# On the GPU machine, after the dependent launches (libecgemm/kernels/dependent_launch.cuh):
# install (sm_90a), the whole test suite, the issue's small shapes with and without the
# dependent launches (route_times), bench's shape sweep, compute-sanitizer on the routes
# that launch dependents (plane split-K, GEMV split-K, the fused families' reductions,
# CUDA-graph capture). $OUT/launch.tgz: pytest_full_suite.txt, route_times.txt,
# sanitizer.txt, shapes/.
set -o pipefail
. "$(dirname "$0")/device_install.sh"
export PYTHONPATH=$PWD
pack() { tar czf "$OUT/launch.tgz" -C "$OUT" --exclude launch.tgz . ; }
trap pack EXIT
timeout 240 python3 -m pytest -q -p no:cacheprovider -rfEs tests/ 2>&1 | tee "$OUT/pytest_full_suite.txt" | tail -4
timeout 120 python3 tools/route_times.py --routes default --env ECGEMM_SERIAL_LAUNCHES=1 \
  --shapes "256,256,256;512,512,512;1024,1024,1024;1,4096,4096;4096,4096,1;128,16384,128;64,8192,8192" \
  2>&1 | grep -v -i warn | tee "$OUT/route_times.txt"
timeout 150 python3 -m bench --profile shapes --sections throughput --no-xla --no-plots \
  --methods ecgemm_tf32tf32,ecgemm_halfhalf --out "$OUT/shapes" 2> /tmp/shapes_log.txt | grep "×" | tail -30
for tool in memcheck racecheck synccheck; do
  timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 python3 -m pytest -q -p no:cacheprovider \
    tests/test_gemv_gpu.py tests/test_python_gpu.py tests/test_c_abi_gpu.py \
    -k "(test_split_k_and_long_k and tf32tf32 and 4096 and N-N and False) or (cuda_graph and (split or GEMV)) or (test_split_k_alpha_beta_ragged_padded and N-T)" \
    2>&1 | tail -3
  echo "$tool exit ${PIPESTATUS[0]}"
done 2>&1 | tee "$OUT/sanitizer.txt"
