#!/usr/bin/env bash
# Device call 5 (README.md here): fused_wgmma's copies of a unit wholly inside the operand without bounds tests,
# against the committed tree (42f568f, carried as .baseline): the fused_wgmma tests; pinned_ab.py on the narrow tiles
# twice each, alternating, and on the wide ones once; call 4's probe on this tree; the held-out sample once each.
set -o pipefail
export PYTHONUNBUFFERED=1
D=$PWD/bench/results/narrow-tiles-2026-11-26
W=/tmp/w5; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call5.tgz -C $W .' EXIT
T0=$(date +%s)
rm -rf /tmp/probe-src && mkdir /tmp/probe-src && tar -c --exclude=./.baseline . | tar -x -C /tmp/probe-src
(cd /tmp/probe-src && patch -p1 < $D/call5_probe.patch > $W/probe-patch.txt 2>&1)
BUILD="python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real"
$BUILD --target /tmp/base-site -C build-dir=/tmp/bbase .baseline > $W/build-base.txt 2>&1 &
$BUILD --target /tmp/probe-site -C build-dir=/tmp/bprobe /tmp/probe-src > $W/build-probe.txt 2>&1 &
$BUILD -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"; wait; echo "builds done $(( $(date +%s) - T0 )) s"
timeout 100 python3 -m pytest -q -p no:cacheprovider -rfEs -n 8 tests/test_fused_wgmma_narrow_gpu.py \
  tests/test_fused_wgmma_gpu.py > $W/tests.txt 2>&1
echo "tests exit $? $(( $(date +%s) - T0 )) s"; tail -n 1 $W/tests.txt; grep -E "^FAILED|^ERROR" $W/tests.txt | head -8
cd /tmp
for r in 1 2; do
  for tree in base new; do
    PP=; [ $tree = base ] && PP=/tmp/base-site
    PYTHONPATH=$PP timeout 80 python3 $D/pinned_ab.py $W/$tree$r.jsonl > $W/$tree$r.txt 2>&1
    echo "$tree$r exit $? $(( $(date +%s) - T0 )) s"
  done
  python3 $D/ab_table.py $W/new$r.jsonl $W/base$r.jsonl > $W/ab$r.txt; tail -1 $W/ab$r.txt
done
paste -d'|' $W/ab1.txt $W/ab2.txt | cut -c1-230
for tree in base new; do
  PP=; [ $tree = base ] && PP=/tmp/base-site
  PYTHONPATH=$PP timeout 80 python3 $D/pinned_ab.py $W/wide-$tree.jsonl fused_wgmma > $W/wide-$tree.txt 2>&1
  echo "wide-$tree exit $? $(( $(date +%s) - T0 )) s"
done
python3 $D/ab_table.py $W/wide-new.jsonl $W/wide-base.jsonl > $W/wide-ab.txt; tail -1 $W/wide-ab.txt
for shape in "TN 4876 4316 64" "TN 14626 3729 22" "NN 11773 14899 12"; do
  PYTHONPATH=/tmp/probe-site timeout 60 python3 $D/../ring-2026-11-26/thin_probe.py fused_wgmma:narrow $shape > $W/probe-${shape// /-}.txt 2>&1
  echo "probe $shape exit $?"; grep -m1 family $W/probe-${shape// /-}.txt
  grep "PROBE transform" $W/probe-${shape// /-}.txt | sort | awk 'NR%5==1'; grep "PROBE consumer" $W/probe-${shape// /-}.txt | sort | awk 'NR%10==1'
done
for tree in base new; do
  PP=; [ $tree = base ] && PP=/tmp/base-site
  PYTHONPATH=$PP timeout 75 python3 -m bench.random --seed 26 --out $W/random-$tree --max-minutes 1.1 --no-plots > $W/random-$tree.log 2>&1
  echo "random-$tree exit $? $(( $(date +%s) - T0 )) s"; grep -E "^\| (tf32tf32|halfhalf|auto) \| (1018|200) " $W/random-$tree/table.md
done
python3 $D/../cluster-2026-11-26/compare.py $W/random-new/results.json $W/random-base/results.json > $W/compare.txt
grep -E "^(gemm|batched)|routes changed|->" $W/compare.txt | head -24
rm -f $W/random-*/results.json; gzip -f $W/*.log
