#!/usr/bin/env bash
# Device call 2 (README.md here): three builds, 837fb59 (.baseline, carried; "base"), base with AUTO's fused_mma guard
# priced (call2_guard.patch; "g") and the tree (g and kDramEfficiency 0.77; "f"): changed_ab.py on changed2.txt (every
# case of seeds 26 and 34 whose plan differs between any two of them), in the order base, g, f, f, g, base, each round
# behind a GPU sleep; the random sweep (seed 26) on f; the planner, C ABI and AUTO GPU tests on f.
set -o pipefail
export PYTHONUNBUFFERED=1
D=$PWD/bench/results/auto-price-2026-11-28
W=/tmp/a2; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call2.tgz -C $W .' EXIT
T0=$(date +%s)
tar xzf .device/baseline.tgz  # .baseline
rm -rf /tmp/g && cp -r .baseline /tmp/g && patch -d /tmp/g -p1 < $D/call2_guard.patch > $W/patch.txt || echo "patch failed"
PIP="python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real"
$PIP -C build-dir=/tmp/b2-base --target /tmp/site-base .baseline > $W/build-base.txt 2>&1 &
PB=$!
$PIP -C build-dir=/tmp/b2-g --target /tmp/site-g /tmp/g > $W/build-g.txt 2>&1 &
PG=$!
$PIP -C build-dir=/tmp/b2-f . > $W/build-f.txt 2>&1; echo "build f exit $? $(( $(date +%s) - T0 )) s"
wait $PB; echo "build base exit $? $(( $(date +%s) - T0 )) s"
wait $PG; echo "build g exit $? $(( $(date +%s) - T0 )) s"
for f in $W/build-*.txt; do tail -3 $f > $f.t && mv $f.t $f; done
site() { case $1 in base*) echo /tmp/site-base;; g*) echo /tmp/site-g;; *) echo "";; esac; }
for run in base1 g1 f1 f2 g2 base2; do
  (cd $D && PYTHONPATH=$(site $run) timeout 80 python3 changed_ab.py changed2.txt $W/changed-$run.jsonl > $W/changed-$run.txt 2>&1)
  echo "ab $run exit $? $(( $(date +%s) - T0 )) s"
done
python3 $D/summarize.py ab $W/changed-{base1,g1,g2,base2}.jsonl > $W/g-over-base.md; tail -1 $W/g-over-base.md
python3 $D/summarize.py ab $W/changed-{g1,f1,f2,g2}.jsonl > $W/f-over-g.md; tail -1 $W/f-over-g.md
python3 $D/summarize.py ab $W/changed-{base1,f1,f2,base2}.jsonl > $W/f-over-base.md; tail -1 $W/f-over-base.md
export PYTHONPATH=$PWD
timeout 130 python3 -m bench.random --seed 26 --max-minutes 0.9 --out $W/random-26 --no-plots > $W/random-26.log 2>&1
echo "random exit $? $(( $(date +%s) - T0 )) s"; grep -E "^\| (tf32tf32|halfhalf|auto) \| [0-9]+ \| " $W/random-26/table.md | cut -c1-60
python3 bench/results/narrow-tiles-2026-11-26/residuals.py $W/random-26/results.json
gzip -f $W/random-26/results.json $W/*.log
LEFT=$(( 570 - ($(date +%s) - T0) ))
TESTS="tests/test_planner_gpu.py tests/test_c_abi_gpu.py tests/test_auto_fused_gpu.py tests/test_auto_fused_wgmma_gpu.py"
timeout $LEFT python3 -m pytest -q -p no:cacheprovider -rfE -n 8 $TESTS > $W/pytest.txt 2>&1
echo "pytest exit $? $(( $(date +%s) - T0 )) s"; grep -E "^FAILED|^ERROR| passed| failed" $W/pytest.txt | cut -c1-250 | head -12
