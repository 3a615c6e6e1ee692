#!/usr/bin/env bash
# Device call R (README.md; not run: the session's device time ran out): the four batch rows refitted without the
# 87 times of other simt tiles that the landed rows took in (a plain "simt" pin the fitting build planned on a piped
# tile; tools/fit_cost_model.py now leaves such times out). It puts callB/batch_rows_refit.inc in place of those
# rows, then runs seed 26's sweep (against call S) and the dot tile's plan test. Keep the rows if the sweep's
# batches hold or gain (rows.py compares two sweeps).
set -o pipefail
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
T0=$(date +%s)
python3 - <<'PY'
import pathlib
inc = pathlib.Path("libecgemm/cost_coefficients.inc")
rows = pathlib.Path("bench/results/piped-2026-12-07/callB/batch_rows_refit.inc").read_text().splitlines()
lines = inc.read_text().splitlines()
names = [r.split("//")[1].split(",")[0].strip() for r in rows]
lines = [next((r for r, n in zip(rows, names) if f"// {n}," in l), l) for l in lines]
inc.write_text("\n".join(lines) + "\n")
PY
git diff --stat libecgemm/cost_coefficients.inc
python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real \
  -C build-dir=/tmp/b1 . > $OUT/build.txt 2>&1; echo "build exit $? $(( $(date +%s) - T0 )) s"
timeout 100 python3 -m bench.random --seed 26 --max-minutes 1.4 --out $OUT/random-26 --no-plots > $OUT/random-26.log 2>&1
echo "random exit $? $(( $(date +%s) - T0 )) s"; grep -E "^\| (tf32tf32|halfhalf|auto) \| [0-9]+ \| " $OUT/random-26/table.md | cut -c1-80
timeout 40 python3 -m pytest -q -p no:cacheprovider -n 12 tests/test_simt_dot_gpu.py -k plan > $OUT/tests.txt 2>&1
echo "tests exit $? $(( $(date +%s) - T0 )) s"; tail -n 1 $OUT/tests.txt
gzip -f $OUT/random-26/results.json $OUT/random-26.log
