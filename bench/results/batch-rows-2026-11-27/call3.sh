#!/usr/bin/env bash
# Device call 3 (README.md here): the tree (55a8627: the batch row and GEMV's [r][kk] staging) against main
# (dae8e9e, .baseline) on the held-out sample (seed 26), order base, new, new, base, for README's row; then a
# calibration of the thin products (min(m, n) <= 4 of seed 29) with the families that serve them pinned, on the tree's
# GEMV kernel, for its cost rows.
set -o pipefail
export PYTHONUNBUFFERED=1
H=$PWD/bench/results/chain-waves-2026-11-27
W=/tmp/r3; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call3.tgz -C $W --exclude="*.png" .' EXIT
T0=$(date +%s)
BUILD="python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real"
$BUILD --target /tmp/site-base -C build-dir=/tmp/bbase .baseline > $W/build-base.txt 2>&1 &
$BUILD -C build-dir=/tmp/bnew . > $W/build-new.txt 2>&1
echo "build exit $?"; wait; echo "builds done $(( $(date +%s) - T0 )) s"; grep -h "Successfully installed" $W/build*.txt | wc -l
for f in $W/build-*.txt; do tail -3 $f > $f.t && mv $f.t $f; done
for r in base:1 new:1 new:2 base:2; do
  v=${r%:*}; i=${r#*:}; PP=; [ $v = base ] && PP=/tmp/site-base
  PYTHONPATH=$PP timeout 95 python3 -m bench.random --seed 26 --out $W/random-$v$i --max-minutes 0.9 --no-plots > $W/random-$v$i.log 2>&1
  echo "random $v$i exit $? $(( $(date +%s) - T0 )) s"; grep -E "^\| (tf32tf32|halfhalf|auto) \| (1018|200) " $W/random-$v$i/table.md | cut -c1-60
done
for p in new1:base1 new2:base2; do
  python3 $H/routes_ab.py $W/random-${p%:*}/results.json $W/random-${p#*:}/results.json > $W/routes_ab-${p/:/-}.txt 2>&1
  echo "== ${p}"; grep -E "^(gemm|batched)|routes changed" $W/routes_ab-${p/:/-}.txt | cut -c1-160
done
python3 bench/results/narrow-tiles-2026-11-26/residuals.py $W/random-new2/results.json
THIN=simt,gemv,gemv:wide,gemv:lines,fused_mma:64,fused_mma:32,fused_mma/fp32
timeout 170 python3 -m bench.random --seed 29 --count 1000 --batched-count 300 --max-width 4 --modes tf32tf32,halfhalf,auto \
  --families $THIN --out $W/thin29 --max-minutes 2.6 --no-plots > $W/thin29.log 2>&1
echo "thin29 exit $? $(( $(date +%s) - T0 )) s"; grep measured $W/thin29/table.md
gzip -f $W/*/results.json $W/*.log
