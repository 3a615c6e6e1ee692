#!/usr/bin/env bash
# Device call 4 (README.md here): call 3's kernel with the strip tile's cost row rescaled by call 3's measured / estimated
# time (this tree) against a17a26d (.baseline, carried): random-ab as in call 2, profile.py, route-times on three single products, then every GPU test on
# this tree (random-ab installs it).
set -o pipefail
export PYTHONUNBUFFERED=1
T0=$(date +%s)
tar xzf .device/baseline.tgz  # .baseline, carried as one file
S="--count 0 --batched-count 400 --max-k 32 --max-minutes 0.4"
timeout 300 python3 tools/device.py random-ab --base .baseline --sample="--seed 26 $S" --held-out="--seed 34 $S" \
  --timeout 45 --build-timeout 200 > $OUT/random-ab.txt 2>&1
echo "random-ab exit $? $(( $(date +%s) - T0 )) s"
cd $OUT && tar czf ab.tgz --remove-files routes_ab-*.txt whole.txt random-*/results.json.gz random-*/table.md random-*.log build-*.txt
tar xzf ab.tgz --wildcards 'routes_ab-*' whole.txt && grep -v "^      \|^    " routes_ab-new1-base1.txt routes_ab-newt-baset.txt | grep batched | cut -c1-200; cat whole.txt; rm -f routes_ab-* whole.txt
cd - > /dev/null
timeout 40 python3 bench/results/batched-fp32-2026-11-27/profile.py > $OUT/times.txt 2>&1
# test_small_k_plans_take_the_fp32_form_where_it_is_priced_lowest's single products: the FP32 form against simt.
timeout 60 python3 tools/device.py route-times --shapes "7,12,208;19,14,1817;198,10,187" --modes tf32tf32 \
  --routes default,fused_mma --env ECGEMM_FAMILY=simt --layouts NN,TT > $OUT/route-times.txt 2>&1
grep -E " x[ 0-9.]+ |cublas" $OUT/route-times.txt | cut -c1-120 | head -30
timeout 250 python3 -m pytest -q -p no:cacheprovider -rfE -n 8 tests > $OUT/pytest.txt 2>&1
echo "pytest exit $? $(( $(date +%s) - T0 )) s"; grep -E "^FAILED|^ERROR| passed| failed" $OUT/pytest.txt | cut -c1-300 | head -20
