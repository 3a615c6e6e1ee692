#!/usr/bin/env bash
# Device call 7 (README.md here): the lines kernel with one thin column at 5 and at 6 blocks an SM (five_blocks.sed,
# six_blocks.sed on gemv.cu: ptxas 48 / 40 registers; 16-byte loads spill 8 / 32 bytes, scalar loads none) against
# this tree's 4, one build after the other: ab_batched.py over shapes_batched.txt with gemv:lines pinned.
set -o pipefail
export PYTHONUNBUFFERED=1
R=$PWD; D=$R/bench/results/batched-lines-2026-11-26
W=/tmp/l7; rm -rf $W; mkdir -p $W
trap 'cp $R/libecgemm/kernels/simt/gemv.cu.orig $R/libecgemm/kernels/simt/gemv.cu 2>/dev/null; tar czf $OUT/call7.tgz -C $W .' EXIT
cp libecgemm/kernels/simt/gemv.cu libecgemm/kernels/simt/gemv.cu.orig
for v in four five six; do
  cp libecgemm/kernels/simt/gemv.cu.orig libecgemm/kernels/simt/gemv.cu
  [ $v != four ] && sed -i -f $D/${v}_blocks.sed libecgemm/kernels/simt/gemv.cu
  python3 -m pip install --no-deps --no-build-isolation --no-index \
    -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build_$v.txt 2>&1
  echo "build $v exit $?"
  (cd /tmp && timeout 100 python3 $D/ab_batched.py $D/shapes_batched.txt $W/ab_$v.json gemv:lines > $W/ab_$v.txt 2> $W/ab_$v.err)
  echo "ab $v exit $?"; tail -n 1 $W/ab_$v.err
done
