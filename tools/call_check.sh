#!/usr/bin/env bash
# On the GPU machine: install (sm_90a only), the C-ABI, batched and GEMV GPU suites, then
# the small-product probes (strided batches against torch.bmm, small squares and long k)
# and bench.overhead (per-call host cost from Python and from C). Logs go to $OUT.
set -o pipefail
. "$(dirname "$0")/device_install.sh"
timeout 240 python3 -m pytest -q -p no:cacheprovider -rfEs -x tests/test_c_abi_gpu.py \
  tests/test_c_batched_gpu.py tests/test_gemv_gpu.py "$@" 2>&1 | tee "$OUT/pytest.txt" | tail -5
{
  timeout 120 python3 tools/probe.py --modes tf32tf32,halfhalf,fp32 \
    --shapes "64,64,64;64,16384,64;64,1048576,64;128,16384,128;33,4000,60" \
    --batched "4096,64,64,64;4096,32,32,32;512,256,256,256;1024,64,256,64"
} 2>&1 | tee "$OUT/probe.txt"
timeout 180 python3 -m bench.overhead --out "$OUT/overhead" 2> "$OUT/overhead_log.txt" | tail -40
