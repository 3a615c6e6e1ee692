#!/usr/bin/env bash
# Device call 5 (README.md here): the held-out batches still below 0.95x torch.bmm on simt or fused_mma, each family
# pinned (tf32tf32), on the tree with the element-wise 4-byte copies (46bde3d): which family is fastest where.
set -o pipefail
export PYTHONUNBUFFERED=1
D=$PWD/bench/results/fused-latency-2026-11-26
W=/tmp/f5; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call5.tgz -C $W .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"
cd /tmp && timeout 400 python3 $D/../batched-lines-2026-11-26/ab_batched.py $D/shapes_batched.txt $W/ab_batched.json \
  - simt fused_mma:32 fused_mma:64 fused_wgmma > $W/ab_batched.txt 2> $W/ab_batched.err
echo "ab exit $?"; tail -n 3 $W/ab_batched.txt
