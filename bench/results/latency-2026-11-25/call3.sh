#!/usr/bin/env bash
# Device call 3 (README.md here): fused_mma's two tiles priced by their fitted rows (call 2), the
# serial split-K reducer's blocks shaped to short columns, the cluster reduction's loads overlapped.
# Build; the whole GPU suite; the held-out sample (seed 26); ncu over shapes.py again.
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/l3; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call3.tgz -C $W .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"
timeout 240 python3 -m pytest -q -p no:cacheprovider -rfEs -n 8 tests -k "not short_of_memory" > $W/suite.txt 2>&1
echo "suite exit $?"; tail -3 $W/suite.txt; grep -E "^FAILED|^ERROR" $W/suite.txt | head -10
timeout 150 python3 -m bench.random --seed 26 --out $W/random-seed26 --max-minutes 2.2 --no-plots > $W/random.log 2>&1
echo "random exit $?"; grep "^| tf32tf32 | 1018\|^| halfhalf | 1018\|^| auto | 1018\|^| tf32tf32 | 200\|^| halfhalf | 200\|^| auto | 200" $W/random-seed26/table.md
python3 bench/results/latency-2026-11-25/shapes.py tf32tf32 > $W/plans.txt 2>&1; cat $W/plans.txt
timeout 100 ncu --clock-control none --target-processes all --section SpeedOfLight --section LaunchStats \
  --csv --page details python3 bench/results/latency-2026-11-25/shapes.py tf32tf32 > $W/ncu.csv 2> $W/ncu.err
echo "ncu exit $?"
