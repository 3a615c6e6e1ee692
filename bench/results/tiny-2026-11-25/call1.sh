#!/usr/bin/env bash
# Device call 1 (README.md here): main (a4de322's code): the kernels and launch-to-launch period of
# back-to-back calls on small products, cuBLAS beside each ecgemm mode and three pinned families.
set -o pipefail
export PYTHONUNBUFFERED=1
R=$PWD; D=$R/bench/results/tiny-2026-11-25
W=/tmp/t1; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call1.tgz -C $W .' EXIT
date +%s > $W/t0
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $? after $(( $(date +%s) - $(cat $W/t0) )) s"
cd /tmp && timeout 400 python3 $D/probe.py $D/shapes.txt $W/probe.json simt fused_mma:32 gemv > $W/probe.txt 2> $W/probe.err
echo "probe exit $?"; tail -3 $W/probe.err
