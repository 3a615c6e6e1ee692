#!/usr/bin/env bash
# Device call 8 (README.md here): main as landed (5977890) on a sample no fit or A/B has seen (seed 28, the default
# sizes), beside the held-out seed 26 in the same process order, for how far seed 26's figures generalise.
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/k8; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call8.tgz -C $W --exclude="*.png" .' EXIT
T0=$(date +%s)
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $? $(( $(date +%s) - T0 )) s"
for seed in 28 26; do
  timeout 150 python3 -m bench.random --seed $seed --out $W/seed$seed --max-minutes 2.2 --no-plots > $W/seed$seed.log 2>&1
  echo "seed$seed exit $? $(( $(date +%s) - T0 )) s"; grep -E "^\| (tf32tf32|halfhalf|auto) \| [0-9]+ " $W/seed$seed/table.md | head -6
  grep -A3 "^## Flags" $W/seed$seed/table.md | head -4
done
gzip -f $W/seed*/results.json $W/*.log
