#!/usr/bin/env bash
# Device call 5 (README.md here): one build (the tree of calls 3-4) on the held-out sample (seed 26) twice, in two
# processes: how far cuBLAS's own times move between two runs of the same program (they moved 2.3-3.2% between the
# two builds' runs of calls 1, 3 and 4 while ecgemm's times on unchanged routes stayed within 0.5%).
set -o pipefail
export PYTHONUNBUFFERED=1
H=$PWD/bench/results/chain-waves-2026-11-27
W=/tmp/c5; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call5.tgz -C $W --exclude="*.png" .' EXIT
T0=$(date +%s)
python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real \
  --target /tmp/site-s -C build-dir=/tmp/bs . > $W/build.txt 2>&1
echo "build exit $? $(( $(date +%s) - T0 )) s"; tail -n 2 $W/build.txt > $W/build.t && mv $W/build.t $W/build.txt
for r in 1 2; do
  PYTHONPATH=/tmp/site-s timeout 95 python3 -m bench.random --seed 26 --out $W/random-$r --max-minutes 0.9 --no-plots > $W/random-$r.log 2>&1
  echo "random $r exit $? $(( $(date +%s) - T0 )) s"; grep -E "^\| (tf32tf32|halfhalf|auto) \| (1018|200) " $W/random-$r/table.md | cut -c1-70
done
python3 $H/routes_ab.py $W/random-2/results.json $W/random-1/results.json > $W/routes_ab.txt 2>&1; grep -v "^      " $W/routes_ab.txt | cut -c1-220 | head -12
gzip -f $W/random-*/results.json $W/*.log
