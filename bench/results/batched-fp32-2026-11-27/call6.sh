#!/usr/bin/env bash
# Device call 6 (README.md here): the committed tree (row0 widened to 64 bits after call 5): the strip, stream, batched,
# FP32-form and GEMV GPU tests.
set -o pipefail
export PYTHONUNBUFFERED=1
T0=$(date +%s)
python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real \
  -C build-dir=/tmp/b6 . > $OUT/build.txt 2>&1
echo "build exit $? $(( $(date +%s) - T0 )) s"; tail -1 $OUT/build.txt
timeout 150 python3 -m pytest -q -p no:cacheprovider -rfE -n 8 tests/test_simt_strips_gpu.py tests/test_simt_stream_gpu.py \
  tests/test_c_batched_gpu.py tests/test_fused_mma_fp32_gpu.py tests/test_gemv_gpu.py > $OUT/pytest.txt 2>&1
echo "pytest exit $? $(( $(date +%s) - T0 )) s"; grep -E "^FAILED|^ERROR| passed| failed" $OUT/pytest.txt | cut -c1-300 | head -20
