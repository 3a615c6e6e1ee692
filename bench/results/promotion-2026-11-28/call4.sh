#!/usr/bin/env bash
# Device call 4 (README.md): compensation once a stage instead of once a k-step (the stage's hi·hi from zero by plain
# adds, one Fast2Sum into the sum; lo·lo kept), a build switch in the tree then (-DECGEMM_STAGE_COMPENSATION=1,
# stage_compensation.patch), beside the landed tree (347aee6, .baseline): residuals.py in each, the fused_mma, AUTO and
# batched tests on the variant beside them, then changed_ab.py on cases.txt, base, new, new, base.
set -o pipefail
export PYTHONUNBUFFERED=1
D=$PWD/bench/results/promotion-2026-11-28
AB=$PWD/bench/results/auto-price-2026-11-28
W=/tmp/p4; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call4.tgz -C $W .' EXIT
T0=$(date +%s)
tar xzf .device/baseline.tgz  # .baseline
PIP="python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real"
$PIP -C build-dir=/tmp/b4-base --target /tmp/site-base .baseline > $W/build-base.txt 2>&1 &
PB=$!
$PIP -C build-dir=/tmp/b4-new -C cmake.define.CMAKE_CUDA_FLAGS=-DECGEMM_STAGE_COMPENSATION=1 . > $W/build-new.txt 2>&1; echo "build new exit $? $(( $(date +%s) - T0 )) s"
wait $PB; echo "build base exit $? $(( $(date +%s) - T0 )) s"
for f in $W/build-*.txt; do tail -3 $f > $f.t && mv $f.t $f; done
site() { case $1 in base*) echo /tmp/site-base;; *) echo "";; esac; }
TESTS="tests/test_fused_mma_gpu.py tests/test_auto_fused_gpu.py tests/test_c_batched_gpu.py"
(PYTHONPATH=$PWD timeout 120 python3 -m pytest -q -p no:cacheprovider -rfE -n 6 $TESTS > $W/pytest.txt 2>&1; echo "pytest exit $? $(( $(date +%s) - T0 )) s") &
PT=$!
for run in base new; do
  (cd $D && PYTHONPATH=$(site $run) timeout 60 python3 residuals.py $W/res-$run.jsonl > $W/res-$run.txt 2>&1)
  echo "residuals $run exit $? $(( $(date +%s) - T0 )) s"
done
python3 $D/compare.py landed=$W/res-base.jsonl stage=$W/res-new.jsonl > $W/residuals.md 2>&1; sed -n 3,17p $W/residuals.md
wait $PT; grep -E "^FAILED|^ERROR| passed| failed" $W/pytest.txt | cut -c1-200 | head -8
for run in base1 new1 new2 base2; do
  (cd $AB && PYTHONPATH=$(site $run) timeout 60 python3 changed_ab.py $D/cases.txt $W/ab-$run.jsonl > $W/ab-$run.txt 2>&1)
  echo "ab $run exit $? $(( $(date +%s) - T0 )) s $(wc -l < $W/ab-$run.jsonl)"
done
python3 $D/compare.py --ab $W/ab-{base1,new1,new2,base2}.jsonl > $W/stage-by-k.md; cat $W/stage-by-k.md
gzip -f $W/*.jsonl
