#!/usr/bin/env bash
# Device call 5 (README.md here): where the narrow tiles' time goes now that unaligned operands come through class
# maps (call 4: the wide tiles 1.2-1.4x, the narrow ones 1.05-1.07x): the probe build (this tree + call5_probe.patch:
# clock64 around each wait and part of the transform and consumer loops, printed by two CTAs) on unaligned products
# of each major-ness, an aligned one (the TMA kernel) and a wide one (cases.py: one call a process).
set -o pipefail
export PYTHONUNBUFFERED=1
D=$PWD/bench/results/aligned-copies-2026-11-27
W=/tmp/a5; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call5.tgz -C $W .' EXIT
rm -rf /tmp/src-probe && mkdir /tmp/src-probe && tar -c --exclude=./.baseline . | tar -x -C /tmp/src-probe
(cd /tmp/src-probe && patch -p1 < $D/call5_probe.patch) > $W/patch.txt 2>&1
python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real \
  --target /tmp/site-probe -C build-dir=/tmp/bprobe /tmp/src-probe > $W/build-probe.txt 2>&1
echo "build exit $?"
cd /tmp
while read -r f mode op m k n ea eb off; do
  name="$f-$mode-$op-$m-$k-$n-$ea-$eb-$off"; name=${name//:/_}
  PYTHONPATH=/tmp/site-probe timeout 60 python3 $D/cases.py $f $mode $op $m $k $n $ea $eb $off > $W/probe-$name.txt 2>&1
  echo "== $name: $(grep -h residual $W/probe-$name.txt | cut -d'|' -f1)"
  grep -h "PROBE transform" $W/probe-$name.txt | sort | head -4 | cut -c1-250
  grep -h "PROBE consumer" $W/probe-$name.txt | sort | head -2
done <<'CASES'
fused_wgmma:narrow tf32tf32 NN 14626 3729 22 0 0 0
fused_wgmma:narrow tf32tf32 TT 14626 3729 22 0 0 0
fused_wgmma:narrow tf32tf32 NN 14624 3728 24 0 0 0
fused_wgmma:narrow halfhalf NN 14626 3729 22 0 0 0
fused_wgmma tf32tf32 NN 4095 4097 4093 0 0 0
CASES
