#!/usr/bin/env bash
# Device call 1 (README.md here): every family's first kernel (simt, gemv, fused_wgmma, the split pass; fused_mma's
# as before) launched as a programmatic dependent of the stream's previous kernel, against main (055a16b, carried as
# .baseline): the held-out sample (seed 26) for both trees; interleaved.py (../cluster-2026-11-26) for both trees on
# 60 held-out simt, gemv and planes shapes (interleaved_shapes.txt), each GEMM behind a torch kernel.
set -o pipefail
export PYTHONUNBUFFERED=1
D=$PWD/bench/results/pdl-2026-11-26
I=$PWD/bench/results/cluster-2026-11-26/interleaved.py
W=/tmp/p1; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call1.tgz -C $W --exclude="*.png" .' EXIT
BUILD="python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real"
$BUILD --target /tmp/base-site -C build-dir=/tmp/bbase .baseline > $W/build-base.txt 2>&1 &
$BUILD -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $? $(date +%T)"; wait; echo "baseline build done $(date +%T)"
PYTHONPATH=/tmp/base-site timeout 100 python3 -m bench.random --seed 26 --out $W/base-random --max-minutes 1.4 \
  --no-plots > $W/base-random.log 2>&1
echo "baseline random exit $?"; grep -E "^\| (tf32tf32|halfhalf|auto) \| (1018|200) " $W/base-random/table.md
timeout 100 python3 -m bench.random --seed 26 --out $W/random --max-minutes 1.4 --no-plots > $W/random.log 2>&1
echo "random exit $?"; grep -E "^\| (tf32tf32|halfhalf|auto) \| (1018|200) " $W/random/table.md
python3 $D/../cluster-2026-11-26/compare.py $W/random/results.json $W/base-random/results.json > $W/compare.txt
grep -E "^(gemm|batched)|routes changed" $W/compare.txt
gzip -f $W/random/results.json $W/base-random/results.json $W/random.log $W/base-random.log
cd /tmp
timeout 60 python3 $I $D/interleaved_shapes.txt $W/interleaved.json > $W/interleaved.txt 2>&1
echo "interleaved exit $?"
PYTHONPATH=/tmp/base-site timeout 60 python3 $I $D/interleaved_shapes.txt $W/interleaved-base.json \
  > $W/interleaved-base.txt 2>&1
echo "interleaved base exit $?"
python3 $D/interleaved_summary.py $W/interleaved.json $W/interleaved-base.json | tee $W/interleaved_summary.md
echo "end $(date +%T)"
