#!/usr/bin/env bash
# Device call 1 (README.md here): the split count past the accuracy bound chosen for whole waves (s) against main
# (7d38c10, .baseline). bits.py with the narrow and wide tiles pinned on (s), against checks-2026-11-27 call 2 (the
# same bits wherever the route is the same: the kernels compiled a method a file, 84d6a11, first run on a GPU here);
# planned_ab.py on changed.txt, two rounds in rotated order; the held-out sample (seed 26), main first; the planner,
# C ABI (the planes) and fused_wgmma GPU tests on (s).
set -o pipefail
export PYTHONUNBUFFERED=1
H=$PWD/bench/results/chain-waves-2026-11-27
N=$PWD/bench/results/narrow-tiles-2026-11-26
C=$PWD/bench/results/cluster-2026-11-26
K=$PWD/bench/results/checks-2026-11-27/call2
W=/tmp/c1; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call1.tgz -C $W --exclude="*.png" .' EXIT
T0=$(date +%s)
BUILD="python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real"
$BUILD --target /tmp/site-base -C build-dir=/tmp/bbase .baseline > $W/build-base.txt 2>&1 &
$BUILD --target /tmp/site-s -C build-dir=/tmp/bs . > $W/build-s.txt 2>&1
echo "build exit $?"; wait; echo "builds done $(( $(date +%s) - T0 )) s"; grep -h "Successfully installed" $W/build*.txt | wc -l
for f in $W/build-*.txt; do tail -3 $f > $f.t && mv $f.t $f; done
(cd /tmp && for f in fused_wgmma:narrow fused_wgmma; do
  PYTHONPATH=/tmp/site-s timeout 60 python3 $N/bits.py $W/bits-s-${f#*:}.txt $f; done)
python3 $H/same_bits.py $W/bits-s-narrow.txt $K/bits-s-narrow.txt
python3 $H/same_bits.py $W/bits-s-fused_wgmma.txt $K/bits-s-fused_wgmma.txt
echo "bits done $(( $(date +%s) - T0 )) s"
r=0
for order in "base s" "s base"; do
  r=$((r+1))
  for v in $order; do (cd /tmp && PYTHONPATH=/tmp/site-$v timeout 100 python3 $H/planned_ab.py $W/ab-$v-$r.jsonl $H/changed.txt > $W/ab-$v-$r.log 2>&1); done
  python3 $N/ab_table.py $W/ab-s-$r.jsonl $W/ab-base-$r.jsonl > $W/ab-$r.txt 2>&1
  echo "round $r: $(tail -1 $W/ab-$r.txt) $(( $(date +%s) - T0 )) s"
done
for v in base s; do
  PYTHONPATH=/tmp/site-$v timeout 95 python3 -m bench.random --seed 26 --out $W/random-$v --max-minutes 0.9 --no-plots > $W/random-$v.log 2>&1
  echo "random $v exit $? $(( $(date +%s) - T0 )) s"; grep -E "^\| (tf32tf32|halfhalf|auto) \| (1018|200) " $W/random-$v/table.md | cut -c1-70
done
python3 $C/compare.py $W/random-s/results.json $W/random-base/results.json > $W/compare.txt 2>&1; grep -A8 "^gemm tf32tf32\|^gemm halfhalf\|^gemm auto" $W/compare.txt | cut -c1-300
python3 $N/residuals.py $W/random-s/results.json
PYTHONPATH=/tmp/site-s timeout 80 python3 -m pytest -q -p no:cacheprovider -rfEs -n 8 tests/test_planner_gpu.py \
  tests/test_planner.py tests/test_c_abi_gpu.py tests/test_fused_wgmma_gpu.py > $W/tests.txt 2>&1
echo "tests exit $? $(( $(date +%s) - T0 )) s"; tail -n 1 $W/tests.txt; grep -E "^FAILED|^ERROR" $W/tests.txt | head -5
gzip -f $W/random-*/results.json $W/*.log $W/*.jsonl
