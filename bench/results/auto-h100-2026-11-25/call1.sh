#!/usr/bin/env bash
# Device call 1 (README.md here): main's tree (6cccc00 + gemv's test rule) on an H100: the GEMV GPU tests with the
# componentwise rule; bench.auto at 4096^3, 8192^3, 16384^3 (AUTO against halfhalf and tf32tf32, per-kernel GPU time),
# as auto-default-2026-11-24 call 1 measured on an H200; the energy section at 8192^3.
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/a1; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call1.tgz -C $W .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"
timeout 120 python3 -m pytest -q -p no:cacheprovider -rfEs -n 12 tests/test_gemv_gpu.py > $W/tests.txt 2>&1
echo "tests exit $?"; tail -n 1 $W/tests.txt; grep -E "^FAILED|^ERROR" $W/tests.txt | head -12
timeout 240 python3 -m bench.auto --sizes 4096,8192,16384 --out $W/auto > $W/auto.log 2>&1
echo "auto exit $?"; grep -E "^\|" $W/auto/table.md | head -20
timeout 150 python3 -m bench --shapes 8192x8192x8192 --sections energy --no-xla --no-plots \
  --methods cublas_sgemm,ecgemm_tf32tf32,ecgemm_halfhalf,ecgemm_auto --out $W/energy > $W/energy.log 2>&1
echo "energy exit $?"; grep -E "^\|" $W/energy/table.md 2>/dev/null | head -12
