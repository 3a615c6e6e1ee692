#!/usr/bin/env bash
# Device call 9 (README.md here): call 8 found the class maps as slow on aligned operands (shift 0) as on unaligned
# ones, ~1.45x the TMA kernel's time. (d) the eight class boxes of a unit issued by eight warps (lane 0 of each), not
# one thread (call9_spread_issue.patch), against this tree (a) and main (.baseline), pinned_ab.py pairs, two rounds in
# rotated order.
set -o pipefail
export PYTHONUNBUFFERED=1
D=$PWD/bench/results/aligned-copies-2026-11-27
N=$PWD/bench/results/narrow-tiles-2026-11-26
W=/tmp/a9; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call9.tgz -C $W .' EXIT
T0=$(date +%s)
rm -rf /tmp/src-d && mkdir /tmp/src-d && tar -c --exclude=./.baseline --exclude=./bench/results . | tar -x -C /tmp/src-d
(cd /tmp/src-d && patch -p1 < $D/call9_spread_issue.patch) > $W/patch.txt 2>&1
BUILD="python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real"
$BUILD --target /tmp/site-base -C build-dir=/tmp/bbase .baseline > $W/build-base.txt 2>&1 &
$BUILD --target /tmp/site-d -C build-dir=/tmp/bd /tmp/src-d > $W/build-d.txt 2>&1 &
$BUILD --target /tmp/site-a -C build-dir=/tmp/ba . > $W/build-a.txt 2>&1
echo "build exit $?"; wait; echo "builds done $(( $(date +%s) - T0 )) s"; grep -h "Successfully installed" $W/build*.txt | wc -l
cd /tmp
PYTHONPATH=/tmp/site-d timeout 60 python3 $N/bits.py $W/bits-d.txt; PYTHONPATH=/tmp/site-a timeout 60 python3 $N/bits.py $W/bits-a.txt
cmp -s $W/bits-a.txt $W/bits-d.txt && echo "bits d: same as a" || echo "bits d: DIFFER"
r=0
for order in "base a d" "d a base"; do
  r=$((r+1))
  for v in $order; do PYTHONPATH=/tmp/site-$v timeout 60 python3 $D/pinned_ab.py $W/t-$v-$r.jsonl pairs > /dev/null 2>&1; done
done
for v in a d; do
  for r in 1 2; do python3 $N/ab_table.py $W/t-$v-$r.jsonl $W/t-base-$r.jsonl > $W/ab-$v-$r.txt; done
done
paste -d'|' $W/ab-a-1.txt $W/ab-d-1.txt | cut -c1-200
tail -1 $W/ab-a-2.txt; tail -1 $W/ab-d-2.txt
echo "done $(( $(date +%s) - T0 )) s"
