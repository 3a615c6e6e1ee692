#!/usr/bin/env bash
# Device call 4 (README.md here): the FP32 form priced at its CTAs' k, its floor kept (this tree; call 3's strip refit
# dropped) against dc51c26 (.baseline, carried): random-ab on the products and batches with k <= 32 of seed 26 (base,
# new, new, base) and seed 34 (held out); then every GPU test on this tree.
set -o pipefail
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
T0=$(date +%s)
tar xzf .device/baseline.tgz  # .baseline, carried as one file
S="--max-k 32 --max-minutes 0.5"
timeout 300 python3 tools/device.py random-ab --base .baseline --sample="--seed 26 $S" --held-out="--seed 34 $S" \
  --timeout 60 --build-timeout 200 > $OUT/random-ab.txt 2>&1
echo "random-ab exit $? $(( $(date +%s) - T0 )) s"
cd $OUT && tar czf ab.tgz --remove-files routes_ab-*.txt whole.txt random-*/results.json.gz random-*/table.md random-*.log build-*.txt
tar xzf ab.tgz --wildcards 'routes_ab-*' whole.txt && grep -v "^      " routes_ab-new1-base1.txt routes_ab-new2-base2.txt routes_ab-newt-baset.txt | cut -c1-200 | head -80; cat whole.txt; rm -f routes_ab-* whole.txt
cd - > /dev/null
unset PYTHONPATH
timeout 240 python3 -m pytest -q -p no:cacheprovider -rfE -n 8 tests > $OUT/pytest.txt 2>&1
echo "pytest exit $? $(( $(date +%s) - T0 )) s"; grep -E "^FAILED|^ERROR| passed| failed" $OUT/pytest.txt | cut -c1-250 | head -20
echo "done $(( $(date +%s) - T0 )) s"
