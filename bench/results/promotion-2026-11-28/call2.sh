#!/usr/bin/env bash
# Device call 2 (README.md): the landed tree (the 32-wide tile compensated, no build switch): every GPU test, with
# residuals.py and the accuracy suite beside them (neither is timed).
set -o pipefail
export PYTHONUNBUFFERED=1
D=$PWD/bench/results/promotion-2026-11-28
W=/tmp/p2; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call2.tgz -C $W .' EXIT
T0=$(date +%s)
python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real \
  -C build-dir=/tmp/b2 . > $W/build.txt 2>&1; echo "build exit $? $(( $(date +%s) - T0 )) s"; tail -3 $W/build.txt > $W/b.t && mv $W/b.t $W/build.txt
export PYTHONPATH=$PWD
(cd $D && timeout 120 python3 residuals.py $W/res-new.jsonl > $W/res-new.txt 2>&1; echo "residuals exit $? $(( $(date +%s) - T0 )) s") &
timeout 300 python3 -m bench --sections accuracy --no-xla --max-minutes 2 --no-plots --out $W/accuracy > $W/accuracy.md 2> $W/accuracy.log &
timeout 330 python3 -m pytest -q -p no:cacheprovider -rfE -n 8 tests > $W/tests.txt 2>&1
echo "tests exit $? $(( $(date +%s) - T0 )) s"; tail -n 1 $W/tests.txt; grep -E "^FAILED|^ERROR" $W/tests.txt | cut -c1-200 | head -12
wait; echo "accuracy done $(( $(date +%s) - T0 )) s"; grep -A4 "^## Flags" $W/accuracy.md | head -5
gzip -f $W/*.log $W/*.jsonl
