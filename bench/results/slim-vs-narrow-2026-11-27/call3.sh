#!/usr/bin/env bash
# Device call 3 (README.md here): the simt slim and fused_wgmma narrow rows refitted on call 2's calibration (this tree)
# against d442703 (.baseline, carried) with tools/device.py random-ab on the thin products (a side <= 32) of seed 26
# (base, new, new, base) and of seed 34 (held out, once each).
set -o pipefail
export PYTHONUNBUFFERED=1
T0=$(date +%s)
timeout 560 python3 tools/device.py random-ab --base .baseline --sample="--seed 26 --max-width 32 --max-minutes 0.6" \
  --held-out="--seed 34 --max-width 32 --max-minutes 0.6" --timeout 60 --build-timeout 300 > $OUT/random-ab.txt 2>&1
echo "random-ab exit $? $(( $(date +%s) - T0 )) s"; tail -40 $OUT/random-ab.txt | cut -c1-200
