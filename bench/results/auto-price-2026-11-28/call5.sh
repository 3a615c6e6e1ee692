#!/usr/bin/env bash
# Device call 5 (README.md here): fused_mma's 32-wide tile at 8 CTAs an SM (the tree, uncommitted: TileShape<32>'s
# kCtasPerSm 6 -> 8, 64 registers) against the committed head (.baseline, carried): tile32_ab.py, base, new, new, base;
# the fused_mma, AUTO fused and scaled, and batched GPU tests on the new build.
set -o pipefail
export PYTHONUNBUFFERED=1
D=$PWD/bench/results/auto-price-2026-11-28
W=/tmp/a5; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call5.tgz -C $W .' EXIT
T0=$(date +%s)
tar xzf .device/baseline.tgz  # .baseline
git diff > $W/tree.diff 2>/dev/null || true
PIP="python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real"
$PIP -C build-dir=/tmp/b5-base --target /tmp/site-base .baseline > $W/build-base.txt 2>&1 &
PB=$!
$PIP -C build-dir=/tmp/b5-new . > $W/build-new.txt 2>&1; echo "build new exit $? $(( $(date +%s) - T0 )) s"
wait $PB; echo "build base exit $? $(( $(date +%s) - T0 )) s"
for f in $W/build-*.txt; do tail -3 $f > $f.t && mv $f.t $f; done
site() { case $1 in base*) echo /tmp/site-base;; *) echo "";; esac; }
for run in base1 new1 new2 base2; do
  (cd $D && PYTHONPATH=$(site $run) timeout 70 python3 tile32_ab.py $W/t32-$run.jsonl > $W/t32-$run.txt 2>&1)
  echo "ab $run exit $? $(( $(date +%s) - T0 )) s"
done
python3 $D/summarize.py tile32 $W/t32-{base1,new1,new2,base2}.jsonl > $W/tile32.md; cat $W/tile32.md | head -30
LEFT=$(( 330 - ($(date +%s) - T0) ))
TESTS="tests/test_fused_mma_gpu.py tests/test_fused_mma_fp32_gpu.py tests/test_auto_fused_gpu.py tests/test_auto_scaled_gpu.py tests/test_c_batched_gpu.py"
PYTHONPATH=$PWD timeout $LEFT python3 -m pytest -q -p no:cacheprovider -rfE -n 8 $TESTS > $W/pytest.txt 2>&1
echo "pytest exit $? $(( $(date +%s) - T0 )) s"; grep -E "^FAILED|^ERROR| passed| failed" $W/pytest.txt | cut -c1-250 | head -12
