#!/usr/bin/env bash
# Device call 1 (README.md): fused_mma's 32-wide tile with the hi·hi promotion compensated (Fast2Sum, its error into
# the correction) in two builds of this tree, -DECGEMM_PROMOTION=1 (compensation) and =2 (and lo·lo in tf32tf32),
# beside the tree before it (.baseline, carried): residuals.py in each (the fused_mma GPU tests on build 2 beside
# them), then changed_ab.py (auto-price-2026-11-28) on cases.txt, base, v2, v2, base, each round behind a GPU sleep.
set -o pipefail
export PYTHONUNBUFFERED=1
D=$PWD/bench/results/promotion-2026-11-28
AB=$PWD/bench/results/auto-price-2026-11-28
W=/tmp/p1; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call1.tgz -C $W .' EXIT
T0=$(date +%s)
tar xzf .device/baseline.tgz  # .baseline
PIP="python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real"
$PIP -C build-dir=/tmp/b1-base --target /tmp/site-base .baseline > $W/build-base.txt 2>&1 &
PB=$!
$PIP -C build-dir=/tmp/b1-v1 -C cmake.define.CMAKE_CUDA_FLAGS=-DECGEMM_PROMOTION=1 --target /tmp/site-v1 . > $W/build-v1.txt 2>&1 &
P1=$!
$PIP -C build-dir=/tmp/b1-v2 -C cmake.define.CMAKE_CUDA_FLAGS=-DECGEMM_PROMOTION=2 . > $W/build-v2.txt 2>&1; echo "build v2 exit $? $(( $(date +%s) - T0 )) s"
wait $PB; echo "build base exit $? $(( $(date +%s) - T0 )) s"
wait $P1; echo "build v1 exit $? $(( $(date +%s) - T0 )) s"
for f in $W/build-*.txt; do tail -3 $f > $f.t && mv $f.t $f; done
site() { case $1 in base*) echo /tmp/site-base;; v1*) echo /tmp/site-v1;; *) echo "";; esac; }
TESTS="tests/test_fused_mma_gpu.py tests/test_fused_mma_fp32_gpu.py tests/test_auto_fused_gpu.py tests/test_streams_gpu.py tests/test_c_batched_gpu.py"
(PYTHONPATH=$PWD timeout 200 python3 -m pytest -q -p no:cacheprovider -rfE -n 6 $TESTS > $W/pytest.txt 2>&1; echo "pytest exit $? $(( $(date +%s) - T0 )) s") &
PT=$!
for run in base v1 v2; do
  (cd $D && PYTHONPATH=$(site $run) timeout 90 python3 residuals.py $W/res-$run.jsonl > $W/res-$run.txt 2>&1)
  echo "residuals $run exit $? $(( $(date +%s) - T0 )) s $(wc -l < $W/res-$run.jsonl)"
done
python3 $D/compare.py base=$W/res-base.jsonl v1=$W/res-v1.jsonl v2=$W/res-v2.jsonl > $W/residuals.md 2>&1; head -24 $W/residuals.md
wait $PT; grep -E "^FAILED|^ERROR| passed| failed" $W/pytest.txt | cut -c1-250 | head -12
for run in base1 v21 v22 base2; do
  (cd $AB && PYTHONPATH=$(site $run) timeout 75 python3 changed_ab.py $D/cases.txt $W/ab-$run.jsonl > $W/ab-$run.txt 2>&1)
  echo "ab $run exit $? $(( $(date +%s) - T0 )) s $(wc -l < $W/ab-$run.jsonl)"
done
python3 $AB/summarize.py ab $W/ab-{base1,v21,v22,base2}.jsonl > $W/v2-over-base.md; tail -1 $W/v2-over-base.md
python3 $D/compare.py --ab $W/ab-{base1,v21,v22,base2}.jsonl > $W/v2-by-k.md; cat $W/v2-by-k.md
gzip -f $W/*.jsonl
