#!/usr/bin/env bash
# Device call 9 (README.md here): big squares (squares_shapes.txt: 4096³, 8192³, 16384³) in tf32tf32 with cuBLAS SGEMM
# in the same process (../gemv-2026-11-25/ab.py), main as landed against main before this session (055a16b, carried
# as .baseline): the plane route's split pass is now a programmatic dependent.
set -o pipefail
export PYTHONUNBUFFERED=1
D=$PWD/bench/results/pdl-2026-11-26
W=/tmp/p9; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call9.tgz -C $W .' EXIT
BUILD="python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real"
$BUILD --target /tmp/base-site -C build-dir=/tmp/bbase .baseline > $W/build-base.txt 2>&1 &
$BUILD -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $? $(date +%T)"; wait; echo "baseline build done $(date +%T)"
cd /tmp
for round in 1 2; do
  timeout 130 python3 $D/../gemv-2026-11-25/ab.py $D/squares_shapes.txt $W/new$round.json - > $W/new$round.txt 2>&1
  echo "new $round exit $?"; cut -c1-80 $W/new$round.txt
  PYTHONPATH=/tmp/base-site timeout 130 python3 $D/../gemv-2026-11-25/ab.py $D/squares_shapes.txt $W/base$round.json - \
    > $W/base$round.txt 2>&1
  echo "base $round exit $?"; cut -c1-80 $W/base$round.txt
done
echo "end $(date +%T)"
