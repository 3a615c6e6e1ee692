#!/usr/bin/env bash
# Device call 5 (README.md here): compute-sanitizer on main's tree (32-bit tile raster, the
# epilogue's Overwrite path): memcheck over the one-handle-four-streams and graph-capture tests;
# memcheck and racecheck over fused_mma and simt calls (sanitize_fused_mma.py, then simt pinned).
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/s5; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call5.tgz -C $W .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"
SEL="four_streams and (halfhalf-NT-64x65536x64 or auto-NT-1024x1024x1024 or tf32tf32-NN-64x8192x4096 or fp32-TN-64x8192x64) or capture_on_a_handle"
timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 python3 -m pytest -q -p no:cacheprovider \
  tests/test_streams_gpu.py -k "$SEL" > $W/streams_memcheck.txt 2>&1
echo "streams memcheck exit $? $(grep -E 'ERROR SUMMARY|passed|failed' $W/streams_memcheck.txt | tr '\n' ' ')"
D=bench/results/stages-2026-11-23
for tool in memcheck racecheck; do
  timeout 90 compute-sanitizer --tool $tool --error-exitcode 9 --kernel-name kns=fused_mma \
    python3 $D/sanitize_fused_mma.py > $W/fused_mma-$tool.txt 2>&1
  echo "fused_mma $tool exit $? $(grep -E 'ERROR SUMMARY' $W/fused_mma-$tool.txt)"
  ECGEMM_SANITIZE_FAMILY=simt timeout 90 compute-sanitizer --tool $tool --error-exitcode 9 --kernel-name kns=simt \
    python3 $D/sanitize_fused_mma.py > $W/simt-$tool.txt 2>&1
  echo "simt $tool exit $? $(grep -E 'ERROR SUMMARY' $W/simt-$tool.txt)"
done
