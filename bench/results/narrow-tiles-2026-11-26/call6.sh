#!/usr/bin/env bash
# Device call 6 (README.md here): the narrow tiles' two remaining limits, as patches on the committed tree (42f568f,
# carried as .baseline): (a) four transform warpgroups for N <= 32 (call6_four_transform_groups.patch), (b) the
# consumers' next hi·hi issued before the promotion waits (call6_overlap.patch), (ab) both (this tree). Tests on ab;
# bits.py on every build (the same bits expected); pinned_ab.py on each, two rounds in rotated order; probe on ab.
set -o pipefail
export PYTHONUNBUFFERED=1
D=$PWD/bench/results/narrow-tiles-2026-11-26
W=/tmp/w6; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call6.tgz -C $W .' EXIT
T0=$(date +%s)
for v in a b; do rm -rf /tmp/src-$v && cp -r .baseline /tmp/src-$v; done
(cd /tmp/src-a && patch -p1 < $D/call6_four_transform_groups.patch) > $W/patch.txt 2>&1
(cd /tmp/src-b && patch -p1 < $D/call6_overlap.patch) >> $W/patch.txt 2>&1
rm -rf /tmp/src-probe && mkdir /tmp/src-probe && tar -c --exclude=./.baseline . | tar -x -C /tmp/src-probe
(cd /tmp/src-probe && patch -p1 < $D/call5_probe.patch) >> $W/patch.txt 2>&1
BUILD="python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real"
$BUILD --target /tmp/site-base -C build-dir=/tmp/bbase .baseline > $W/build-base.txt 2>&1 &
$BUILD --target /tmp/site-a -C build-dir=/tmp/ba /tmp/src-a > $W/build-a.txt 2>&1 &
$BUILD --target /tmp/site-b -C build-dir=/tmp/bb /tmp/src-b > $W/build-b.txt 2>&1 &
$BUILD --target /tmp/site-probe -C build-dir=/tmp/bprobe /tmp/src-probe > $W/build-probe.txt 2>&1 &
$BUILD -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"; wait; echo "builds done $(( $(date +%s) - T0 )) s"; grep -h "Successfully installed" $W/build*.txt | wc -l
timeout 100 python3 -m pytest -q -p no:cacheprovider -rfEs -n 8 tests/test_fused_wgmma_narrow_gpu.py > $W/tests.txt 2>&1
echo "tests exit $? $(( $(date +%s) - T0 )) s"; tail -n 1 $W/tests.txt; grep -E "^FAILED|^ERROR" $W/tests.txt | head -8
site() { case $1 in base) echo /tmp/site-base;; a) echo /tmp/site-a;; b) echo /tmp/site-b;; ab) echo "";; esac; }
cd /tmp
for v in base a b ab; do PYTHONPATH=$(site $v) timeout 60 python3 $D/bits.py $W/bits-$v.txt; done
for v in a b ab; do cmp -s $W/bits-base.txt $W/bits-$v.txt && echo "bits $v: same as base" || { echo "bits $v: DIFFER"; diff $W/bits-base.txt $W/bits-$v.txt | head -4; }; done
for order in "base a b ab" "ab b a base"; do
  for v in $order; do PYTHONPATH=$(site $v) timeout 80 python3 $D/pinned_ab.py $W/t-$v-${order:0:2}.jsonl > /dev/null 2>&1; done
done
for v in a b ab; do
  for r in ba ab; do python3 $D/ab_table.py $W/t-$v-$r.jsonl $W/t-base-$r.jsonl > $W/ab-$v-$r.txt; echo "$v round $r: $(tail -1 $W/ab-$v-$r.txt)"; done
done
paste -d'|' $W/ab-ab-ba.txt $W/ab-ab-ab.txt | cut -c1-230
for shape in "TN 4876 4316 64" "TN 14626 3729 22"; do
  PYTHONPATH=/tmp/site-probe timeout 60 python3 $D/../ring-2026-11-26/thin_probe.py fused_wgmma:narrow $shape > $W/probe-${shape// /-}.txt 2>&1
  grep "PROBE transform" $W/probe-${shape// /-}.txt | sort | awk 'NR%5==1' | head -3; grep "PROBE consumer" $W/probe-${shape// /-}.txt | sort | awk 'NR%10==1'
done
