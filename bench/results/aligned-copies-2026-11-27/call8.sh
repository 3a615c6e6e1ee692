#!/usr/bin/env bash
# Device call 8 (README.md here): is the general kernel's narrow-tile time (calls 5-7: ~2,900 cycles a unit against the
# TMA kernel's ~2,000) the class layout's or the kernel's? (b) every operand through class maps, aligned ones too
# (call8_all_classes.patch); (c) (b) with the general kernel's code cut to the class layouts (no copies, no TMA-layout
# split: call8_class_code_only.patch); both beside this tree (a) and main (.baseline) on unaligned products and aligned
# ones of about the same shape (pinned_ab.py pairs), two rounds in rotated order.
set -o pipefail
export PYTHONUNBUFFERED=1
D=$PWD/bench/results/aligned-copies-2026-11-27
N=$PWD/bench/results/narrow-tiles-2026-11-26
W=/tmp/a8; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call8.tgz -C $W .' EXIT
T0=$(date +%s)
mk() { rm -rf /tmp/src-$1 && mkdir /tmp/src-$1 && tar -c --exclude=./.baseline --exclude=./bench/results . | tar -x -C /tmp/src-$1; }
for v in b c; do mk $v; done
(cd /tmp/src-b && patch -p1 < $D/call8_all_classes.patch) > $W/patch.txt 2>&1
(cd /tmp/src-c && patch -p1 < $D/call8_class_code_only.patch) >> $W/patch.txt 2>&1
BUILD="python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real"
$BUILD --target /tmp/site-base -C build-dir=/tmp/bbase .baseline > $W/build-base.txt 2>&1 &
for v in b c; do $BUILD --target /tmp/site-$v -C build-dir=/tmp/b$v /tmp/src-$v > $W/build-$v.txt 2>&1 & done
$BUILD --target /tmp/site-a -C build-dir=/tmp/ba . > $W/build-a.txt 2>&1
echo "build exit $?"; wait; echo "builds done $(( $(date +%s) - T0 )) s"; grep -h "Successfully installed" $W/build*.txt | wc -l
cd /tmp
r=0
for order in "base a b c" "c b a base"; do
  r=$((r+1))
  for v in $order; do PYTHONPATH=/tmp/site-$v timeout 60 python3 $D/pinned_ab.py $W/t-$v-$r.jsonl pairs > /dev/null 2>&1; done
done
for v in a b c; do
  for r in 1 2; do python3 $N/ab_table.py $W/t-$v-$r.jsonl $W/t-base-$r.jsonl > $W/ab-$v-$r.txt; done
done
paste -d'|' $W/ab-a-1.txt $W/ab-b-1.txt | cut -c1-200
paste -d'|' $W/ab-c-1.txt $W/ab-c-2.txt | cut -c1-200
echo "done $(( $(date +%s) - T0 )) s"
