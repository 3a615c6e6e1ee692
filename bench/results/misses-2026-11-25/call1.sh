#!/usr/bin/env bash
# Device call 1 (README.md here): where the held-out sample's slowest non-GEMV shapes lose (tf32tf32 below 0.8x SGEMM in
# gemv-in-cta-2026-11-25 call 3, 102 shapes): ab.py (gemv-2026-11-25) with the planner's route and every family pinned.
set -o pipefail
export PYTHONUNBUFFERED=1
D=$PWD/bench/results/misses-2026-11-25
AB=$PWD/bench/results/gemv-2026-11-25/ab.py
W=/tmp/m1; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call1.tgz -C $W .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"
(cd /tmp && timeout 400 python3 $AB $D/shapes.txt $W/ab.json - fused_mma:32 fused_mma:64 simt planes fused_wgmma fused_mma/fp32 \
  > $W/ab.txt 2> $W/ab.err)
echo "ab exit $?"; tail -n 3 $W/ab.err
