#!/usr/bin/env bash
# Device call 1 (README.md here): this tree (slim-vs-narrow's refit, and fused_wgmma's chains on a thin C cut at 128
# Tensor Core k-steps) against bf59833 (.baseline, carried) with tools/device.py random-ab on the products with a side
# <= 64 of seed 26 (base, new, new, base) and of seed 34 (held out, once each); the changed routes' times and
# residuals are in routes_ab-*.txt.
set -o pipefail
export PYTHONUNBUFFERED=1
T0=$(date +%s)
timeout 580 python3 tools/device.py random-ab --base .baseline --sample="--seed 26 --max-width 64 --max-minutes 0.5" \
  --held-out="--seed 34 --max-width 64 --max-minutes 0.5" --timeout 62 --build-timeout 280 > $OUT/random-ab.txt 2>&1
echo "random-ab exit $? $(( $(date +%s) - T0 )) s"
grep -v "^      family" $OUT/random-ab.txt | cut -c1-220 | tail -80
cat $OUT/whole.txt 2>/dev/null
