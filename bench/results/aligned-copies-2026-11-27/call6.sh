#!/usr/bin/env bash
# Device call 6 (README.md here): call 5's probe put ~1,000 cycles a unit more outside the split in the general kernel
# than in the TMA kernel. (a) this tree: no cp.async group made or waited for where nothing is copied; (b) (a) + two
# FP32 units in flight where that leaves four stages (call6_two_units.patch: the narrow N = 32 tile). Both against main
# (944038c, .baseline) on the narrow products (pinned_ab.py narrow, two rounds in rotated order) and the wide ones (one
# round, (a) only); the probe (call6_probe.patch) on (a) and (b) for the unaligned 14626 x 3729 x 22 in both major-nesses.
set -o pipefail
export PYTHONUNBUFFERED=1
D=$PWD/bench/results/aligned-copies-2026-11-27
N=$PWD/bench/results/narrow-tiles-2026-11-26
W=/tmp/a6; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call6.tgz -C $W .' EXIT
T0=$(date +%s)
mk() { rm -rf /tmp/src-$1 && mkdir /tmp/src-$1 && tar -c --exclude=./.baseline --exclude=./bench/results . | tar -x -C /tmp/src-$1; }
for v in b pa pb; do mk $v; done
(cd /tmp/src-b && patch -p1 < $D/call6_two_units.patch) > $W/patch.txt 2>&1
(cd /tmp/src-pa && patch -p1 < $D/call6_probe.patch) >> $W/patch.txt 2>&1
(cd /tmp/src-pb && patch -p1 < $D/call6_probe.patch && patch -p1 < $D/call6_two_units.patch) >> $W/patch.txt 2>&1
BUILD="python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real"
$BUILD --target /tmp/site-base -C build-dir=/tmp/bbase .baseline > $W/build-base.txt 2>&1 &
for v in b pa pb; do $BUILD --target /tmp/site-$v -C build-dir=/tmp/b$v /tmp/src-$v > $W/build-$v.txt 2>&1 & done
$BUILD --target /tmp/site-a -C build-dir=/tmp/ba . > $W/build-a.txt 2>&1
echo "build exit $?"; wait; echo "builds done $(( $(date +%s) - T0 )) s"; grep -h "Successfully installed" $W/build*.txt | wc -l
cd /tmp
for v in base a; do PYTHONPATH=/tmp/site-$v timeout 60 python3 $N/bits.py $W/bits-$v.txt; done
for v in a; do cmp -s $W/bits-base.txt $W/bits-$v.txt && echo "bits $v: same as base" || echo "bits $v: DIFFER"; done
while read -r f mode op m k n ea eb off; do
  for v in pa pb; do
    name="$v-$mode-$op-$m-$k-$n"
    PYTHONPATH=/tmp/site-$v timeout 60 python3 $D/cases.py $f $mode $op $m $k $n $ea $eb $off > $W/probe-$name.txt 2>&1
    echo "== $name: $(grep -h residual $W/probe-$name.txt | cut -d'|' -f1 | cut -d: -f2)"
    grep -h "PROBE transform t160 cta0\|PROBE transform t0 cta0" $W/probe-$name.txt | sort | cut -c1-250
    grep -h "PROBE consumer" $W/probe-$name.txt | sort | head -1
  done
done <<'CASES'
fused_wgmma:narrow tf32tf32 NN 14626 3729 22 0 0 0
fused_wgmma:narrow tf32tf32 TT 14626 3729 22 0 0 0
CASES
r=0
for order in "base a b" "b a base"; do
  r=$((r+1))
  for v in $order; do PYTHONPATH=/tmp/site-$v timeout 80 python3 $D/pinned_ab.py $W/t-narrow-$v-$r.jsonl narrow > /dev/null 2>&1; done
done
for v in base a; do PYTHONPATH=/tmp/site-$v timeout 80 python3 $D/pinned_ab.py $W/t-wide-$v.jsonl wide > /dev/null 2>&1; done
for v in a b; do
  for r in 1 2; do python3 $N/ab_table.py $W/t-narrow-$v-$r.jsonl $W/t-narrow-base-$r.jsonl > $W/ab-narrow-$v-$r.txt; echo "narrow $v round $r: $(tail -1 $W/ab-narrow-$v-$r.txt)"; done
done
python3 $N/ab_table.py $W/t-wide-a.jsonl $W/t-wide-base.jsonl > $W/ab-wide-a.txt; echo "wide a: $(tail -1 $W/ab-wide-a.txt)"
paste -d'|' $W/ab-narrow-a-1.txt $W/ab-narrow-b-1.txt | cut -c1-220
echo "ab done $(( $(date +%s) - T0 )) s"
