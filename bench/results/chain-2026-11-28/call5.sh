#!/usr/bin/env bash
# Device call 5 (README.md): tiles.py on the landed tree: the 32-wide (compensated) tile pinned against the planner's
# 64-wide one on cases-64.txt, time and residual on urand and positive data.
set -o pipefail
export PYTHONUNBUFFERED=1
D=$PWD/bench/results/chain-2026-11-28
W=/tmp/w5; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call5.tgz -C $W .' EXIT
T0=$(date +%s)
python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real \
  -C build-dir=/tmp/b5 . > $W/build.txt 2>&1; echo "build exit $? $(( $(date +%s) - T0 )) s"; tail -3 $W/build.txt > $W/b.t && mv $W/b.t $W/build.txt
export PYTHONPATH=$PWD
(cd $D && timeout 200 python3 tiles.py $W/tiles.jsonl > $W/tiles.md 2> $W/tiles.log); echo "tiles exit $? $(( $(date +%s) - T0 )) s"
cat $W/tiles.md; tail -3 $W/tiles.log
gzip -f $W/*.jsonl
