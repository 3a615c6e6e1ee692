#!/usr/bin/env bash
# Device call 1 (README.md here): the tree edc0bb7 as landed: every GPU test, the random sweep (seed 26: README's first
# row and plot) with its residual count, and the accuracy suite (bench --sections accuracy).
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/s1; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call1.tgz -C $W --exclude="*.png" .' EXIT
T0=$(date +%s)
python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real \
  -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $? $(( $(date +%s) - T0 )) s"; tail -1 $W/build.txt
timeout 240 python3 -m pytest -q -p no:cacheprovider -rfE -n 8 tests > $W/pytest.txt 2>&1
echo "pytest exit $? $(( $(date +%s) - T0 )) s"; grep -E "^FAILED|^ERROR| passed| failed" $W/pytest.txt | cut -c1-250 | head -20
timeout 115 python3 -m bench.random --seed 26 --max-minutes 0.9 --out $W/random-26 --no-plots > $W/random-26.log 2>&1
echo "random exit $? $(( $(date +%s) - T0 )) s"; grep -E "^\| (tf32tf32|halfhalf|auto) \| [0-9]+ \| " $W/random-26/table.md | cut -c1-60
python3 bench/results/narrow-tiles-2026-11-26/residuals.py $W/random-26/results.json
timeout 110 python3 -m bench --sections accuracy --no-xla --max-minutes 1.5 --no-plots --out $W/accuracy > $W/accuracy.md 2> $W/accuracy.log
echo "accuracy exit $? $(( $(date +%s) - T0 )) s"; tail -3 $W/accuracy.log
gzip -f $W/random-26/results.json $W/*.log
echo "done $(( $(date +%s) - T0 )) s"
