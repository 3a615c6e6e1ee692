#!/usr/bin/env bash
# Device call 5 (README.md here): the split-K reductions signal the next call's first kernel at entry (after their
# wait; call5_reduce.patch), against main (e07188e, carried as .baseline): the held-out sample (seed 26) for both
# trees; and, on that tree, every family pinned on call 1's 144 tf32tf32 misses (misses_shapes.txt;
# ../gemv-2026-11-25/ab.py).
set -o pipefail
export PYTHONUNBUFFERED=1
D=$PWD/bench/results/pdl-2026-11-26
W=/tmp/p5; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call5.tgz -C $W --exclude="*.png" .' EXIT
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
timeout 240 python3 $D/../gemv-2026-11-25/ab.py $D/misses_shapes.txt $W/pinned.json - simt gemv fused_mma:32 \
  fused_mma:64 fused_mma:32/unsplit fused_mma:64/unsplit planes fused_wgmma > $W/pinned.txt 2>&1
echo "pinned exit $?"; tail -n 2 $W/pinned.txt
echo "end $(date +%T)"
