#!/usr/bin/env bash
# Device call 3 (README.md): the landed tree (halfhalf's lo·lo in the compensated tile): every GPU test, with
# residuals.py (promotion-2026-11-28) and the accuracy suite beside them (neither is timed); then the random sweep
# (seed 26), README's first row. Reuses call 2's build directory where the machine is still warm.
set -o pipefail
export PYTHONUNBUFFERED=1
P=$PWD/bench/results/promotion-2026-11-28
W=/tmp/w3; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call3.tgz -C $W .' EXIT
T0=$(date +%s)
python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real \
  -C build-dir=/tmp/b2-new . > $W/build.txt 2>&1; echo "build exit $? $(( $(date +%s) - T0 )) s"; tail -3 $W/build.txt > $W/b.t && mv $W/b.t $W/build.txt
export PYTHONPATH=$PWD
(cd $P && timeout 120 python3 residuals.py $W/res-new.jsonl > $W/res-new.txt 2>&1; echo "residuals exit $? $(( $(date +%s) - T0 )) s") &
timeout 300 python3 -m bench --sections accuracy --no-xla --max-minutes 2 --no-plots --out $W/accuracy > $W/accuracy.md 2> $W/accuracy.log &
timeout 330 python3 -m pytest -q -p no:cacheprovider -rfE -n 8 tests > $W/tests.txt 2>&1
echo "tests exit $? $(( $(date +%s) - T0 )) s"; tail -n 1 $W/tests.txt; grep -E "^FAILED|^ERROR" $W/tests.txt | cut -c1-200 | head -12
wait; echo "accuracy done $(( $(date +%s) - T0 )) s"; grep -A4 "^## Flags" $W/accuracy.md | head -5
timeout 240 python3 -m bench.random --seed 26 --max-minutes 1.2 --out $W/random-26 --no-plots > $W/random-26.log 2>&1
echo "random exit $? $(( $(date +%s) - T0 )) s"; grep -E "^\| (tf32tf32|halfhalf|auto) \| [0-9]+ \| " $W/random-26/table.md | cut -c1-60
gzip -f $W/random-26/results.json $W/*.log $W/*.jsonl
