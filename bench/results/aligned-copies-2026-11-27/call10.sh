#!/usr/bin/env bash
# Device call 10 (README.md here): the tree to land (class maps; their boxes issued by eight warps, call 9) against
# main (944038c, .baseline): bits.py with the narrow and wide tiles pinned (the same bits expected); pinned_ab.py
# narrow, wide and pairs once each; the fused_wgmma, batched, streams, preload and planner GPU tests; bench.stress 10 s;
# the held-out sample (seed 26) on both builds (README's random-sample row, compare.py).
set -o pipefail
export PYTHONUNBUFFERED=1
D=$PWD/bench/results/aligned-copies-2026-11-27
N=$PWD/bench/results/narrow-tiles-2026-11-26
C=$PWD/bench/results/cluster-2026-11-26
W=/tmp/a10; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call10.tgz -C $W --exclude="*.png" .' EXIT
T0=$(date +%s)
BUILD="python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real"
$BUILD --target /tmp/site-base -C build-dir=/tmp/bbase .baseline > $W/build-base.txt 2>&1 &
$BUILD -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"; wait; echo "builds done $(( $(date +%s) - T0 )) s"; grep -h "Successfully installed" $W/build*.txt | wc -l
timeout 200 python3 -m pytest -q -p no:cacheprovider -rfEs -n 8 tests/test_fused_wgmma_narrow_gpu.py tests/test_fused_wgmma_gpu.py \
  tests/test_c_batched_gpu.py tests/test_streams_gpu.py tests/test_intercept_gpu.py tests/test_planner_gpu.py > $W/tests.txt 2>&1
echo "tests exit $? $(( $(date +%s) - T0 )) s"; tail -n 1 $W/tests.txt; grep -E "^FAILED|^ERROR" $W/tests.txt | head -8
timeout 40 python3 -m bench.stress --seconds 10 --out $W/stress > $W/stress.txt 2>&1
echo "stress exit $? $(( $(date +%s) - T0 )) s"; grep -E "^\| (none|32 MiB)" $W/stress/table.md
site() { case $1 in base) echo /tmp/site-base;; new) echo "";; esac; }
cd /tmp
for v in base new; do
  for f in fused_wgmma:narrow fused_wgmma; do PYTHONPATH=$(site $v) timeout 60 python3 $N/bits.py $W/bits-$v-${f#*:}.txt $f; done
done
for f in narrow fused_wgmma; do cmp -s $W/bits-base-$f.txt $W/bits-new-$f.txt && echo "bits $f: same" || echo "bits $f: DIFFER"; done
for form in narrow wide pairs; do
  for v in base new; do PYTHONPATH=$(site $v) timeout 80 python3 $D/pinned_ab.py $W/t-$form-$v.jsonl $form > /dev/null 2>&1; done
  python3 $N/ab_table.py $W/t-$form-new.jsonl $W/t-$form-base.jsonl > $W/ab-$form.txt; echo "$form: $(tail -1 $W/ab-$form.txt)"
done
echo "ab done $(( $(date +%s) - T0 )) s"
cd - > /dev/null
for v in base new; do
  PYTHONPATH=$(site $v) timeout 100 python3 -m bench.random --seed 26 --out $W/random-$v --max-minutes 1.1 --no-plots > $W/random-$v.log 2>&1
  echo "random $v exit $? $(( $(date +%s) - T0 )) s"; grep -E "^\| (tf32tf32|halfhalf|auto) \| (1018|200) " $W/random-$v/table.md
done
python3 $C/compare.py $W/random-new/results.json $W/random-base/results.json > $W/compare.txt 2>&1; head -30 $W/compare.txt
python3 $N/residuals.py $W/random-new/results.json
gzip -f $W/random-*/results.json $W/*.log
