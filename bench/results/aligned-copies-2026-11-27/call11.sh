#!/usr/bin/env bash
# Device call 11 (README.md here): where the class path's ~1.4x over the TMA kernel comes from. On the committed tree
# (a; 2aef997): (e) the general kernel for every call, aligned operands through their one map
# (call11_general_kernel.patch); (f) every operand through class maps, shift 0 where aligned
# (call11_all_classes.patch). pinned_ab.py pairs, two rounds in rotated order, each against (a).
set -o pipefail
export PYTHONUNBUFFERED=1
D=$PWD/bench/results/aligned-copies-2026-11-27
N=$PWD/bench/results/narrow-tiles-2026-11-26
W=/tmp/a11; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call11.tgz -C $W .' EXIT
T0=$(date +%s)
mk() { rm -rf /tmp/src-$1 && mkdir /tmp/src-$1 && tar -c --exclude=./.baseline --exclude=./bench/results . | tar -x -C /tmp/src-$1; }
for v in e f; do mk $v; done
(cd /tmp/src-e && patch -p1 < $D/call11_general_kernel.patch) > $W/patch.txt 2>&1
(cd /tmp/src-f && patch -p1 < $D/call11_all_classes.patch) >> $W/patch.txt 2>&1
BUILD="python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real"
for v in e f; do $BUILD --target /tmp/site-$v -C build-dir=/tmp/b$v /tmp/src-$v > $W/build-$v.txt 2>&1 & done
$BUILD --target /tmp/site-a -C build-dir=/tmp/ba . > $W/build-a.txt 2>&1
echo "build exit $?"; wait; echo "builds done $(( $(date +%s) - T0 )) s"; grep -h "Successfully installed" $W/build*.txt | wc -l
for f in $W/build-*.txt; do tail -3 $f > $f.t && mv $f.t $f; done
cd /tmp
r=0
for order in "a e f" "f e a"; do
  r=$((r+1))
  for v in $order; do PYTHONPATH=/tmp/site-$v timeout 60 python3 $D/pinned_ab.py $W/t-$v-$r.jsonl pairs > /dev/null 2>&1; done
done
for v in e f; do for r in 1 2; do python3 $N/ab_table.py $W/t-$v-$r.jsonl $W/t-a-$r.jsonl > $W/ab-$v-$r.txt; done; done
paste -d'|' $W/ab-e-1.txt $W/ab-f-1.txt | cut -c1-200
tail -1 $W/ab-e-2.txt; tail -1 $W/ab-f-2.txt
gzip -f $W/*.jsonl
echo "done $(( $(date +%s) - T0 )) s"
