#!/usr/bin/env bash
# Device call S (README.md): the tree with the piped rows calibrated (call B): the planner's and the piped tiles'
# tests first, every GPU test, bench.stress (threads x streams x graphs, 5 s a configuration), then seed 26's
# sweep in the time left, against README's first row (call V, the same sweep on the uncalibrated rows).
set -o pipefail
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
T0=$(date +%s); BUDGET=${BUDGET:-585}
python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real \
  -C build-dir=/tmp/b1 . > $OUT/build.txt 2>&1; echo "build exit $? $(( $(date +%s) - T0 )) s"
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv,noheader
timeout 300 python3 -m pytest -q -p no:cacheprovider -rfE -n 12 tests > $OUT/tests-all.txt 2>&1
echo "suite exit $? $(( $(date +%s) - T0 )) s"; tail -n 1 $OUT/tests-all.txt; grep -E "^FAILED|^ERROR" $OUT/tests-all.txt | cut -c1-220 | head
timeout 50 python3 -m bench.stress --seconds 5 --out $OUT/stress > $OUT/stress.txt 2>&1
echo "stress exit $? $(( $(date +%s) - T0 )) s"; tail -n 4 $OUT/stress.txt
LEFT=$(( BUDGET - ($(date +%s) - T0) )); MM=$(python3 -c "print(max(0.5, ($LEFT - 40) / 60))")
echo "sweep gets $MM min"
timeout $(( LEFT - 10 )) python3 -m bench.random --seed 26 --max-minutes $MM --out $OUT/random-26 --no-plots \
  > $OUT/random-26.log 2>&1
echo "random exit $? $(( $(date +%s) - T0 )) s"; grep -E "^\| (tf32tf32|halfhalf|auto) \| [0-9]+ \| " $OUT/random-26/table.md | cut -c1-80
gzip -f $OUT/random-26/results.json $OUT/random-26.log
