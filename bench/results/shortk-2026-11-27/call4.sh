#!/usr/bin/env bash
# Device call 4 (README.md here): the tree as landed (c64980c's library and kernels with the simt pins; its GPU tests ran
# in call 1): the random sweep (seed 26: README's first row and plot) with its residual count, and the accuracy suite.
set -o pipefail
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
W=/tmp/k4; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call4.tgz -C $W --exclude="*.png" .' EXIT
T0=$(date +%s)
python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real \
  -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $? $(( $(date +%s) - T0 )) s"; tail -1 $W/build.txt
timeout 115 python3 -m bench.random --seed 26 --max-minutes 0.9 --out $W/random-26 --no-plots > $W/random-26.log 2>&1
echo "random exit $? $(( $(date +%s) - T0 )) s"; grep -E "^\| (tf32tf32|halfhalf|auto) \| [0-9]+ \| " $W/random-26/table.md | cut -c1-60
python3 bench/results/narrow-tiles-2026-11-26/residuals.py $W/random-26/results.json
timeout 110 python3 -m bench --sections accuracy --no-xla --max-minutes 1.5 --no-plots --out $W/accuracy > $W/accuracy.md 2> $W/accuracy.log
echo "accuracy exit $? $(( $(date +%s) - T0 )) s"; tail -3 $W/accuracy.log
gzip -f $W/random-26/results.json $W/*.log
echo "done $(( $(date +%s) - T0 )) s"
