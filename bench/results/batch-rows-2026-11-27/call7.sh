#!/usr/bin/env bash
# Device call 7 (README.md here): fused_mma's halfhalf tiles priced apart for batches (their rows as they stood) and their
# 2-D rows refitted on narrow64-2026-11-27 call 1, against a27fe35 (.baseline): the held-out sample (seed 26), order base,
# new, new, base; a sample no fit or A/B has seen (seed 34), base then new.
set -o pipefail
export PYTHONUNBUFFERED=1
H=$PWD/bench/results/chain-waves-2026-11-27
W=/tmp/r7; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call7.tgz -C $W --exclude="*.png" .' EXIT
T0=$(date +%s)
BUILD="python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real"
$BUILD --target /tmp/site-base -C build-dir=/tmp/bbase .baseline > $W/build-base.txt 2>&1 &
$BUILD -C build-dir=/tmp/bnew . > $W/build-new.txt 2>&1
echo "build exit $?"; wait; echo "builds done $(( $(date +%s) - T0 )) s"; grep -h "Successfully installed" $W/build*.txt | wc -l
for f in $W/build-*.txt; do tail -3 $f > $f.t && mv $f.t $f; done
for r in base:1 new:1 new:2 base:2 base:t new:t; do
  v=${r%:*}; i=${r#*:}; PP=; [ $v = base ] && PP=/tmp/site-base
  if [ $i = t ]; then ARGS="--seed 34 --max-minutes 0.9"; else ARGS="--seed 26 --max-minutes 0.9"; fi
  PYTHONPATH=$PP timeout 95 python3 -m bench.random $ARGS --out $W/random-$v$i --no-plots > $W/random-$v$i.log 2>&1
  echo "random $v$i exit $? $(( $(date +%s) - T0 )) s"; grep -E "^\| (tf32tf32|halfhalf|auto) \| [0-9]+ \| " $W/random-$v$i/table.md | cut -c1-60
done
for p in new1:base1 new2:base2 newt:baset; do
  python3 $H/routes_ab.py $W/random-${p%:*}/results.json $W/random-${p#*:}/results.json > $W/routes_ab-${p/:/-}.txt 2>&1
  echo "== ${p}"; grep -E "^(gemm|batched)|routes changed" $W/routes_ab-${p/:/-}.txt | cut -c1-160
done
python3 bench/results/narrow-tiles-2026-11-26/residuals.py $W/random-new2/results.json
gzip -f $W/random-*/results.json $W/*.log
