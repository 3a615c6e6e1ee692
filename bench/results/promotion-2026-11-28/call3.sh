#!/usr/bin/env bash
# Device call 3 (README.md): the landed tree: the random sweep (seed 26), README's first row.
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/p3; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call3.tgz -C $W .' EXIT
T0=$(date +%s)
python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real \
  -C build-dir=/tmp/b3 . > $W/build.txt 2>&1; echo "build exit $? $(( $(date +%s) - T0 )) s"; tail -3 $W/build.txt > $W/b.t && mv $W/b.t $W/build.txt
export PYTHONPATH=$PWD
timeout 240 python3 -m bench.random --seed 26 --max-minutes 1.2 --out $W/random-26 --no-plots > $W/random-26.log 2>&1
echo "random exit $? $(( $(date +%s) - T0 )) s"; grep -E "^\| (tf32tf32|halfhalf|auto) \| [0-9]+ \| " $W/random-26/table.md | cut -c1-60
gzip -f $W/random-26/results.json $W/*.log
