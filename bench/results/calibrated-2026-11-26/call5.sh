#!/usr/bin/env bash
# Device call 5 (README.md here): main with bench.random's timing made robust to host gaps (a round whose events and
# calls were not all issued within its GPU sleep is timed again and left out of the median; the calls-a-round
# estimate is the fastest of three calls): its tests on the GPU, then the held-out sample (seed 26) once, to count
# the timings with a sample over 3x their fastest against call 4's runs (23-38 a run before).
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/k5; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call5.tgz -C $W --exclude="*.png" .' EXIT
T0=$(date +%s)
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $? $(( $(date +%s) - T0 )) s"
timeout 150 python3 -m pytest -q -p no:cacheprovider -rfEs tests/test_bench_random.py > $W/tests.txt 2>&1
echo "tests exit $? $(( $(date +%s) - T0 )) s"; tail -n 1 $W/tests.txt; grep -E "^FAILED|^ERROR" $W/tests.txt | head
for r in 1 2; do
  timeout 110 python3 -m bench.random --seed 26 --out $W/random$r --max-minutes 1.6 --no-plots > $W/random$r.log 2>&1
  echo "random$r exit $? $(( $(date +%s) - T0 )) s"; grep -E "^\| (tf32tf32|halfhalf|auto) \| (1018|200) " $W/random$r/table.md
done
python3 - <<'PY'
import json
for r in ("1", "2"):
    res = json.load(open(f"/tmp/k5/random{r}/results.json"))
    outliers = paced = timings = 0
    for sec in ("gemm", "batched"):
        for x in res[sec]:
            for e in x.get("methods", {}).values():
                s = e.get("gpu_samples_ms")
                if not s:
                    continue
                timings += 1
                outliers += max(s) > 3 * min(s)
                paced += bool(e.get("host_paced_rounds"))
    print(f"random{r}: {timings} timings, {outliers} with a kept sample over 3x their fastest, {paced} with a paced round")
PY
gzip -f $W/random*/results.json $W/*.log
