#!/usr/bin/env bash
# On the GPU machine: the sm_80-family path as an Ampere/Ada GPU takes it. libecgemm built
# for 90-real (no sm_90a image), so the H200 runs the mma.sync kernels: whole-route GPU
# time per shape for the default rule, the fused mma.sync family (split in the CTA) and the
# planes + mma.sync mainloop, beside cuBLAS SGEMM (tools/route_times.py); then the C ABI,
# Python and mma.sync suites on that build (PYTEST=all: every test); tools/probe.py on
# batches. $OUT: sm80_route_times.txt, sm80_probe_batches.txt, sm80_pytest.txt.
set -o pipefail
ECGEMM_ARCHS=90-real . "$(dirname "$0")/device_install.sh"
export PYTHONPATH=$PWD
SHAPES=${SHAPES:-"1024,1024,1024;2048,2048,2048;4096,4096,4096;8192,8192,8192;16384,256,16384;64,8192,8192;768,768,768"}
timeout 240 python3 tools/route_times.py --routes default,mma,planes --shapes "$SHAPES" 2>&1 |
  grep -v -i warn | tee "$OUT/sm80_route_times.txt"
# Batches, which take the fused family in every Tensor Core mode on this path.
timeout 120 python3 tools/probe.py --modes tf32tf32,halfhalf,tf32,fp16,markidis,fp32 --shapes "256,256,256" \
  --batched "${BATCHES:-4096,64,64,64;512,256,256,256;256,512,512,512}" 2>&1 | grep -v -i warn |
  tee "$OUT/sm80_probe_batches.txt"
case ${PYTEST:-1} in
  1) TESTS="tests/test_c_abi_gpu.py tests/test_sm80_fused_gpu.py tests/test_python_gpu.py" ;;
  all) TESTS=tests/ ;;
  *) TESTS= ;;
esac
[ -n "$TESTS" ] && timeout 300 python3 -m pytest -q -p no:cacheprovider -rfEs $TESTS 2>&1 |
  tee "$OUT/sm80_pytest.txt" | tail -5
exit 0
