#!/usr/bin/env bash
# Device call 3 (README.md here): call 1 again on the final tree (fused_wgmma's split counts priced as k's 32-wide
# units cut them: wave_splits' `units`), every file brought back in one archive (call 1's were too many to return).
set -o pipefail
export PYTHONUNBUFFERED=1
T0=$(date +%s)
timeout 570 python3 tools/device.py random-ab --base .baseline --sample="--seed 26 --max-width 64 --max-minutes 0.5" \
  --held-out="--seed 34 --max-width 64 --max-minutes 0.5" --timeout 62 --build-timeout 280 > $OUT/random-ab.txt 2>&1
echo "random-ab exit $? $(( $(date +%s) - T0 )) s"
cd $OUT && tar czf ab.tgz --remove-files routes_ab-*.txt whole.txt random-*/results.json.gz random-*/table.md random-*.log build-*.txt
python3 - <<'PY'
import gzip, json, tarfile
t = tarfile.open("ab.tgz")
for name in ("random-new1/results.json.gz", "random-newt/results.json.gz"):
    r = json.load(gzip.open(t.extractfile(name)))
    for mode in r["modes"]:
        ratios = [c["methods"][mode]["residual"] / c["methods"]["cublas"]["residual"] for c in r["gemm"]
                  if c["m"] * c["n"] >= 10 ** 4 and c["methods"].get(mode, {}).get("residual")
                  and c["methods"]["cublas"].get("residual")]
        print(name, mode, sum(x > 1.0 for x in ratios), sum(x > 1.1 for x in ratios), "of", len(ratios),
              "above 1.0 / 1.1x SGEMM's residual, max", round(max(ratios), 3))
PY
