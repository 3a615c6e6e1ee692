#!/usr/bin/env bash
# Device call 4 (README.md here): the refitted rows (this tree): the thin products of seed 26 and 34 (a side <= 32) with
# their residuals against SGEMM's (residuals.py), which call 3's random-ab did not bring back.
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/v4; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call4.tgz -C $W --exclude="*.png" .' EXIT
T0=$(date +%s)
python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real \
  -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $? $(( $(date +%s) - T0 )) s"; tail -1 $W/build.txt
for s in 26 34; do
  timeout 70 python3 -m bench.random --seed $s --max-width 32 --max-minutes 0.6 --out $W/thin-$s --no-plots > $W/thin-$s.log 2>&1
  echo "thin $s exit $? $(( $(date +%s) - T0 )) s"
  python3 bench/results/narrow-tiles-2026-11-26/residuals.py $W/thin-$s/results.json
  gzip -f $W/thin-$s/results.json $W/thin-$s.log
done
