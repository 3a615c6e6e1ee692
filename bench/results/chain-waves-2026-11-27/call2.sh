#!/usr/bin/env bash
# Device call 2 (README.md here): the tree landed (e17fc05) on every GPU test, with the accuracy suite beside them;
# bench.stress 10 s; the held-out sample (seed 26) for README's row; family_probe.py.
set -o pipefail
export PYTHONUNBUFFERED=1
H=$PWD/bench/results/chain-waves-2026-11-27
W=/tmp/c2; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call2.tgz -C $W .' EXIT
T0=$(date +%s)
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $? $(( $(date +%s) - T0 )) s"; tail -n 2 $W/build.txt > $W/build.t && mv $W/build.t $W/build.txt
timeout 200 python3 -m bench --sections accuracy --no-xla --max-minutes 2 --no-plots --out $W/accuracy > $W/accuracy.md 2> $W/accuracy.log &
timeout 300 python3 -m pytest -q -p no:cacheprovider -rfEs -n 8 tests > $W/tests.txt 2>&1
echo "tests exit $? $(( $(date +%s) - T0 )) s"; tail -n 1 $W/tests.txt; grep -E "^FAILED|^ERROR" $W/tests.txt | head -8
wait; echo "accuracy done $(( $(date +%s) - T0 )) s"; grep -A6 "^## Flags" $W/accuracy.md | head -8
timeout 40 python3 -m bench.stress --seconds 10 --out $W/stress > $W/stress.txt 2>&1
echo "stress exit $? $(( $(date +%s) - T0 )) s"; grep -E "^\| (none|32 MiB)" $W/stress/table.md
timeout 95 python3 -m bench.random --seed 26 --out $W/random --max-minutes 0.9 --no-plots > $W/random.log 2>&1
echo "random exit $? $(( $(date +%s) - T0 )) s"; grep -E "^\| (tf32tf32|halfhalf|auto) \| (1018|200) " $W/random/table.md | cut -c1-70
python3 bench/results/narrow-tiles-2026-11-26/residuals.py $W/random/results.json
(cd /tmp && timeout 120 python3 $H/family_probe.py $W/probe.jsonl > $W/probe.txt 2>&1)
echo "probe exit $? $(( $(date +%s) - T0 )) s"; cut -c1-250 $W/probe.txt
gzip -f $W/random/results.json $W/*.log
