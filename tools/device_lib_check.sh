#!/usr/bin/env bash
# On the GPU machine: build libecgemm with plain CMake, run the C-ABI GPU tests and
# the throughput probe; logs go to $OUT. Usage: bash tools/device_lib_check.sh [probe args]
set -o pipefail
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.draw --format=csv | tee "$OUT/gpu.txt"
cmake -S . -B /tmp/build -G Ninja -DECGEMM_CUDA_ARCHITECTURES=90-real -DECGEMM_BUILD_TESTS=OFF \
  -DECGEMM_BUILD_BLAS=OFF -DECGEMM_BUILD_FORTRAN=OFF > "$OUT/build.txt" 2>&1 &&
  cmake --build /tmp/build >> "$OUT/build.txt" 2>&1 || { tail -50 "$OUT/build.txt"; exit 1; }
export ECGEMM_LIBRARY=/tmp/build/libecgemm/libecgemm.so
python3 -m pytest -q -x -p no:cacheprovider tests/test_c_abi.py tests/test_c_abi_gpu.py 2>&1 | tee "$OUT/pytest.txt" | tail -30
python3 tools/probe.py "$@" 2>&1 | tee "$OUT/probe.txt"
