#!/usr/bin/env bash
# Device call 2 (README.md here): a general kernel per staging pair (Compiled: the class-mapped pairs of the corrected
# methods compiled one staging a side; copies and the one-pass methods keep the kernel that reads the staging at run
# time), this tree (s) against main (63b9633, .baseline): the fused_wgmma GPU tests and compute-sanitizer over the
# class-map checks; bits.py with the narrow and wide tiles pinned (the same bits expected); pinned_ab.py narrow, wide
# and pairs, two rounds in rotated order.
set -o pipefail
export PYTHONUNBUFFERED=1
D=$PWD/bench/results/aligned-copies-2026-11-27
N=$PWD/bench/results/narrow-tiles-2026-11-26
W=/tmp/c2; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call2.tgz -C $W .' EXIT
T0=$(date +%s)
BUILD="python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real"
$BUILD --target /tmp/site-base -C build-dir=/tmp/bbase .baseline > $W/build-base.txt 2>&1 &
$BUILD --target /tmp/site-s -C build-dir=/tmp/bs . > $W/build-s.txt 2>&1
echo "build exit $?"; wait; echo "builds done $(( $(date +%s) - T0 )) s"; grep -h "Successfully installed" $W/build*.txt | wc -l
for f in $W/build-*.txt; do tail -3 $f > $f.t && mv $f.t $f; done
PYTHONPATH=/tmp/site-s timeout 150 python3 -m pytest -q -p no:cacheprovider -rfEs -n 8 tests/test_fused_wgmma_narrow_gpu.py \
  tests/test_fused_wgmma_gpu.py tests/test_c_batched_gpu.py tests/test_planner_gpu.py > $W/tests.txt 2>&1
echo "tests exit $? $(( $(date +%s) - T0 )) s"; tail -n 1 $W/tests.txt; grep -E "^FAILED|^ERROR" $W/tests.txt | head -8
PYTHONPATH=/tmp/site-s timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 --print-limit 5 python3 -m pytest -q \
  -p no:cacheprovider tests/test_fused_wgmma_gpu.py tests/test_fused_wgmma_narrow_gpu.py \
  -k "unaligned or copied or pointer_array" > $W/memcheck.txt 2>&1
echo "memcheck exit $? $(( $(date +%s) - T0 )) s"; grep -E "passed|failed|ERROR SUMMARY" $W/memcheck.txt | tail -2
cd /tmp
for v in base s; do
  for f in fused_wgmma:narrow fused_wgmma; do PYTHONPATH=/tmp/site-$v timeout 60 python3 $N/bits.py $W/bits-$v-${f#*:}.txt $f; done
done
for f in narrow fused_wgmma; do cmp -s $W/bits-base-$f.txt $W/bits-s-$f.txt && echo "bits $f: same" || echo "bits $f: DIFFER"; done
echo "bits done $(( $(date +%s) - T0 )) s"
r=0
for order in "base s" "s base"; do
  r=$((r+1))
  for form in pairs wide narrow; do
    for v in $order; do PYTHONPATH=/tmp/site-$v timeout 60 python3 $D/pinned_ab.py $W/t-$form-$v-$r.jsonl $form > /dev/null 2>&1; done
    python3 $N/ab_table.py $W/t-$form-s-$r.jsonl $W/t-$form-base-$r.jsonl > $W/ab-$form-$r.txt 2>&1
    echo "round $r $form: $(tail -1 $W/ab-$form-$r.txt) $(( $(date +%s) - T0 )) s"
  done
done
gzip -f $W/t-*.jsonl
