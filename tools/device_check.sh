#!/usr/bin/env bash
# On the GPU machine: install the package (libecgemm built for sm_90a only, to keep the
# build short), run the whole test suite there (GPU tests included), then the probe.
# Logs go to $OUT. Usage: bash tools/device_check.sh [pytest selection]
set -o pipefail
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.draw --format=csv | tee "$OUT/gpu.txt"
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real . > "$OUT/build.txt" 2>&1 ||
  { tail -50 "$OUT/build.txt"; exit 1; }
# A hang (a lost mbarrier phase, say) must not eat the lease: every step has a limit.
timeout 300 python3 -m pytest -q -p no:cacheprovider -rfEs "${@:-tests}" 2>&1 |
  tee "$OUT/pytest.txt" | tail -25
timeout 120 python3 tools/probe.py --sizes 1024,4096,8192 --overhead 2>&1 | tee "$OUT/probe.txt"
