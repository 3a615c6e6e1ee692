#!/usr/bin/env bash
# Device call 2 (README.md here): operands off 16 bytes through four class maps (this tree) against main (944038c,
# carried as .baseline, where the transform threads copy them 4 bytes at a time): bits.py with the narrow and the wide
# tiles pinned on both builds (the same bits expected), pinned_ab.py narrow and wide on both, in rotated order; then
# the fused_wgmma GPU tests.
set -o pipefail
export PYTHONUNBUFFERED=1
D=$PWD/bench/results/aligned-copies-2026-11-27
N=$PWD/bench/results/narrow-tiles-2026-11-26
W=/tmp/a2; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call2.tgz -C $W --exclude="*.png" --exclude="results.json*" .' EXIT
T0=$(date +%s)
BUILD="python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real"
$BUILD --target /tmp/site-base -C build-dir=/tmp/bbase .baseline > $W/build-base.txt 2>&1 &
$BUILD -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"; wait; echo "builds done $(( $(date +%s) - T0 )) s"; grep -h "Successfully installed" $W/build*.txt | wc -l
site() { case $1 in base) echo /tmp/site-base;; new) echo "";; esac; }
for v in base new; do
  for f in fused_wgmma:narrow fused_wgmma; do
    (cd /tmp && PYTHONPATH=$(site $v) timeout 60 python3 $N/bits.py $W/bits-$v-${f#*:}.txt $f)
  done
done
for f in narrow fused_wgmma; do cmp -s $W/bits-base-$f.txt $W/bits-new-$f.txt && echo "bits $f: same" || { echo "bits $f: DIFFER"; diff $W/bits-base-$f.txt $W/bits-new-$f.txt | head -6; }; done
echo "bits done $(( $(date +%s) - T0 )) s"
for order in "base new" "new base"; do
  for v in $order; do
    for form in narrow wide; do
      (cd /tmp && PYTHONPATH=$(site $v) timeout 80 python3 $D/pinned_ab.py $W/t-$form-$v-${order:0:1}.jsonl $form > /dev/null 2>&1)
    done
  done
done
for form in narrow wide; do
  for r in b n; do python3 $N/ab_table.py $W/t-$form-new-$r.jsonl $W/t-$form-base-$r.jsonl > $W/ab-$form-$r.txt; echo "$form round $r: $(tail -1 $W/ab-$form-$r.txt)"; done
  paste -d'|' $W/ab-$form-b.txt $W/ab-$form-n.txt | cut -c1-220
done
echo "ab done $(( $(date +%s) - T0 )) s"
timeout 150 python3 -m pytest -q -p no:cacheprovider -rfEs -n 8 tests/test_fused_wgmma_narrow_gpu.py tests/test_fused_wgmma_gpu.py > $W/tests.txt 2>&1
echo "tests exit $? $(( $(date +%s) - T0 )) s"; tail -n 1 $W/tests.txt; grep -E "^FAILED|^ERROR" $W/tests.txt | head -8
