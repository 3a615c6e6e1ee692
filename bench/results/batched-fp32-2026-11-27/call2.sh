#!/usr/bin/env bash
# Device call 2 (README.md here): the strip tile's ids through FastDiv (this tree) against a17a26d (.baseline,
# carried): random-ab on the batches with k <= 32 of seed 26 (base, new, new, base) and seed 34 (held out), then
# profile.py's cases on this tree.
set -o pipefail
export PYTHONUNBUFFERED=1
T0=$(date +%s)
tar xzf .device/baseline.tgz  # .baseline, carried as one file
S="--count 0 --batched-count 400 --max-k 32 --max-minutes 0.4"
timeout 480 python3 tools/device.py random-ab --base .baseline --sample="--seed 26 $S" --held-out="--seed 34 $S" \
  --timeout 45 --build-timeout 280 > $OUT/random-ab.txt 2>&1
echo "random-ab exit $? $(( $(date +%s) - T0 )) s"
cd $OUT && tar czf ab.tgz --remove-files routes_ab-*.txt whole.txt random-*/results.json.gz random-*/table.md random-*.log build-*.txt
tar xzf ab.tgz --wildcards 'routes_ab-*' whole.txt && grep -v "^      " routes_ab-new1-base1.txt routes_ab-newt-baset.txt | cut -c1-200 | head -70; cat whole.txt; rm -f routes_ab-* whole.txt
cd - > /dev/null
timeout 60 python3 bench/results/batched-fp32-2026-11-27/profile.py | tee $OUT/times.txt
