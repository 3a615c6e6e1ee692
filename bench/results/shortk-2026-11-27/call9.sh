#!/usr/bin/env bash
# Device call 9 (README.md here): store_shifted without its spills (the shifted values written over the lane's own
# in place; ptxas: 64 bytes of spills in the NN kernel, 8 in the TT, now 0 and 4) against fdf2dd3 (.baseline,
# carried): nn_ab.py (k <= 4 in every layout) and store_ab.py, the stream tile pinned (base, new, new, base); then
# every GPU test on this tree.
set -o pipefail
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
D=bench/results/shortk-2026-11-27
W=/tmp/k9; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call9.tgz -C $W .' EXIT
T0=$(date +%s)
tar xzf .device/baseline.tgz  # .baseline
PIP="python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real"
$PIP -C build-dir=/tmp/b9-base --target /tmp/site-base .baseline > $W/build-base.txt 2>&1 &
PB=$!
$PIP -C build-dir=/tmp/b9-new . > $W/build-new.txt 2>&1; echo "build new exit $? $(( $(date +%s) - T0 )) s"
wait $PB; echo "build base exit $? $(( $(date +%s) - T0 )) s"
for run in base1 new1 new2 base2; do
  P=$PWD; [[ $run == base* ]] && P=/tmp/site-base:$PWD
  PYTHONPATH=$P timeout 70 python3 $D/nn_ab.py $W/nn-$run.jsonl > /dev/null 2> $W/nn-$run.log
  PYTHONPATH=$P timeout 70 python3 $D/store_ab.py $W/all-$run.jsonl > /dev/null 2> $W/all-$run.log
  echo "ab $run exit $? $(( $(date +%s) - T0 )) s"
done
python3 $D/summarize_store.py $W/nn-{base1,new1,new2,base2}.jsonl > $OUT/spills-nn.md; tail -4 $OUT/spills-nn.md
python3 $D/summarize_store.py $W/all-{base1,new1,new2,base2}.jsonl > $OUT/spills-store-ab.md; tail -4 $OUT/spills-store-ab.md
timeout 280 python3 -m pytest -q -p no:cacheprovider -rfE -n 8 tests > $W/pytest.txt 2>&1
echo "pytest exit $? $(( $(date +%s) - T0 )) s"; grep -E "^FAILED|^ERROR| passed| failed" $W/pytest.txt | cut -c1-250 | head -20
echo "done $(( $(date +%s) - T0 )) s"
