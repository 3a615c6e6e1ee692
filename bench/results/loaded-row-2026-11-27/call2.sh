#!/usr/bin/env bash
# Device call 2 (README.md here): GEMV's along-k kernel for a thin side of 2-4 in six variants of its register
# budget and unroll (gemv_lab.py; one library built from .lab, this tree with gemv_lab.patch); then this tree as it
# is: the random sweep (seed 26, README's row; seed 34, which no fit has seen), the residual check, the accuracy
# suite and bench.stress.
set -o pipefail
export PYTHONUNBUFFERED=1
D=$PWD/bench/results/loaded-row-2026-11-27
W=/tmp/r2; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call2.tgz -C $W --exclude="*.png" .' EXIT
T0=$(date +%s)
BUILD="python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real"
$BUILD --target /tmp/site-lab -C build-dir=/tmp/blab .lab > $W/build-lab.txt 2>&1 &
$BUILD -C build-dir=/tmp/bnew . > $W/build-new.txt 2>&1
echo "build exit $?"; wait; echo "builds done $(( $(date +%s) - T0 )) s"; grep -h "Successfully installed" $W/build*.txt | wc -l
for f in $W/build-*.txt; do tail -3 $f > $f.t && mv $f.t $f; done
(cd /tmp && PYTHONPATH=/tmp/site-lab timeout 150 python3 $D/gemv_lab.py $W/gemv_lab.jsonl > $W/gemv_lab.txt 2>&1)
echo "gemv_lab exit $? $(( $(date +%s) - T0 )) s"; cut -c1-230 $W/gemv_lab.txt
for s in 26 34; do
  timeout 95 python3 -m bench.random --seed $s --max-minutes 0.9 --out $W/random-$s --no-plots > $W/random-$s.log 2>&1
  echo "random $s exit $? $(( $(date +%s) - T0 )) s"; grep -E "^\| (tf32tf32|halfhalf|auto) \| [0-9]+ \| " $W/random-$s/table.md | cut -c1-60
done
python3 bench/results/narrow-tiles-2026-11-26/residuals.py $W/random-26/results.json
gzip -f $W/random-*/results.json $W/*.log
timeout 100 python3 -m bench --sections accuracy --no-xla --max-minutes 1.5 --no-plots --out $W/accuracy > $W/accuracy.md 2> $W/accuracy.log &
timeout 40 python3 -m bench.stress --seconds 10 --out $W/stress > $W/stress.txt 2>&1
echo "stress exit $? $(( $(date +%s) - T0 )) s"; grep -E "^\| (none|32 MiB)" $W/stress/table.md
wait; echo "accuracy done $(( $(date +%s) - T0 )) s"; grep -A6 "^## Flags" $W/accuracy.md | head -8
gzip -f $W/accuracy.log
