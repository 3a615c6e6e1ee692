#!/usr/bin/env bash
# Device call 3 (README.md here): the FP32 form priced at its CTAs' k and refitted with the strip row on call 1's sweep
# (this tree) against dc51c26 (.baseline, carried): random-ab on the products and batches with k <= 32 of seed 26
# (base, new, new, base) and seed 34 (held out), then lab_k32.py's routes on this tree.
set -o pipefail
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
T0=$(date +%s)
tar xzf .device/baseline.tgz  # .baseline, carried as one file
S="--max-k 32 --max-minutes 0.5"
timeout 470 python3 tools/device.py random-ab --base .baseline --sample="--seed 26 $S" --held-out="--seed 34 $S" \
  --timeout 60 --build-timeout 280 > $OUT/random-ab.txt 2>&1
echo "random-ab exit $? $(( $(date +%s) - T0 )) s"
cd $OUT && tar czf ab.tgz --remove-files routes_ab-*.txt whole.txt random-*/results.json.gz random-*/table.md random-*.log build-*.txt
tar xzf ab.tgz --wildcards 'routes_ab-*' whole.txt && grep -v "^      " routes_ab-new1-base1.txt routes_ab-newt-baset.txt | cut -c1-200 | head -80; cat whole.txt; rm -f routes_ab-* whole.txt
cd - > /dev/null
timeout 60 python3 bench/results/sweep-2026-11-27/lab_k32.py > $OUT/routes.md 2>&1; cut -c1-200 $OUT/routes.md
echo "done $(( $(date +%s) - T0 )) s"
