#!/usr/bin/env bash
# Device call 11 (README.md here): call 10's tree (fused_mma launched as a programmatic dependent) whole: the GPU
# suite; and interleaved.py for both trees: each GEMM behind a foreign (torch) kernel, which signals nothing early.
set -o pipefail
export PYTHONUNBUFFERED=1
D=$PWD/bench/results/cluster-2026-11-26
W=/tmp/c11; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call11.tgz -C $W .' EXIT
BUILD="python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real"
$BUILD --target /tmp/base-site -C build-dir=/tmp/bbase .baseline > $W/build-base.txt 2>&1 &
$BUILD -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"; wait; echo "baseline build done"
cd /tmp
timeout 60 python3 $D/interleaved.py $D/interleaved_shapes.txt $W/interleaved.json > $W/interleaved.txt 2>&1
echo "interleaved exit $?"
PYTHONPATH=/tmp/base-site timeout 60 python3 $D/interleaved.py $D/interleaved_shapes.txt $W/interleaved-base.json \
  > $W/interleaved-base.txt 2>&1
echo "interleaved base exit $?"
cd - > /dev/null
timeout 200 python3 -m pytest -q -p no:cacheprovider -rfEs -n 8 tests -k "not short_of_memory" > $W/suite.txt 2>&1
echo "suite exit $?"; tail -n 1 $W/suite.txt; grep -E "^FAILED|^ERROR" $W/suite.txt | head -12
