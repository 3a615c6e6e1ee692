#!/usr/bin/env bash
# Device call 9 (README.md here): GEMV's along-k kernel without staging where each thin column is contiguous along
# k and 16-byte aligned (this tree) against 6ab9a64 (.baseline, staged [r][kk]): gemv_ab.py in the order base, new, new,
# base (time and C's bits); the GEMV, batched and planner GPU tests; memcheck and racecheck on gemv_sanitize.py.
set -o pipefail
export PYTHONUNBUFFERED=1
D=$PWD/bench/results/batch-rows-2026-11-27
W=/tmp/r9; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call9.tgz -C $W .' EXIT
T0=$(date +%s)
BUILD="python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real"
$BUILD --target /tmp/site-base -C build-dir=/tmp/bbase .baseline > $W/build-base.txt 2>&1 &
$BUILD -C build-dir=/tmp/bnew . > $W/build-new.txt 2>&1
echo "build exit $?"; wait; echo "builds done $(( $(date +%s) - T0 )) s"; grep -h "Successfully installed" $W/build*.txt | wc -l
for f in $W/build-*.txt; do tail -3 $f > $f.t && mv $f.t $f; done
for r in base:1 new:1 new:2 base:2; do
  v=${r%:*}; i=${r#*:}; PP=; [ $v = base ] && PP=/tmp/site-base
  (cd /tmp && PYTHONPATH=$PP timeout 80 python3 $D/gemv_ab.py $W/gemv-$v$i.jsonl > $W/gemv-$v$i.txt 2>&1)
  echo "gemv $v$i exit $? $(( $(date +%s) - T0 )) s"
done
cat $W/gemv-new1.txt | cut -c1-200
for p in new1:base1 new2:base2; do
  python3 $D/gemv_ab.py --compare $W/gemv-${p%:*}.jsonl $W/gemv-${p#*:}.jsonl > $W/gemv-compare-${p/:/-}.md
  echo "== $p"; cat $W/gemv-compare-${p/:/-}.md
done
timeout 170 python3 -m pytest -q -p no:cacheprovider -rfEs -n 8 tests/test_gemv_gpu.py tests/test_c_batched_gpu.py \
  tests/test_planner_gpu.py > $W/tests.txt 2>&1
echo "tests exit $? $(( $(date +%s) - T0 )) s"; tail -n 1 $W/tests.txt; grep -E "^FAILED|^ERROR" $W/tests.txt | head -8
for tool in memcheck racecheck; do
  (cd /tmp && timeout 120 compute-sanitizer --tool $tool --error-exitcode 3 --print-limit 20 python3 $D/gemv_sanitize.py > $W/$tool.txt 2>&1)
  echo "$tool exit $? $(( $(date +%s) - T0 )) s"; tail -n 2 $W/$tool.txt; grep "ERROR SUMMARY\|RACECHECK SUMMARY" $W/$tool.txt | sort | uniq -c
done
