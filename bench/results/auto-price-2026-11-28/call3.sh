#!/usr/bin/env bash
# Device call 3 (README.md here): the landed tree (the guard priced, the floor at 0.77): every GPU test, the accuracy
# suite beside them, then bench.stress 10 s.
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/a3; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call3.tgz -C $W .' EXIT
T0=$(date +%s)
python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real \
  -C build-dir=/tmp/b3 . > $W/build.txt 2>&1; echo "build exit $? $(( $(date +%s) - T0 )) s"; tail -3 $W/build.txt > $W/b.t && mv $W/b.t $W/build.txt
export PYTHONPATH=$PWD
timeout 230 python3 -m bench --sections accuracy --no-xla --max-minutes 2 --no-plots --out $W/accuracy > $W/accuracy.md 2> $W/accuracy.log &
timeout 300 python3 -m pytest -q -p no:cacheprovider -rfEs -n 8 tests > $W/tests.txt 2>&1
echo "tests exit $? $(( $(date +%s) - T0 )) s"; tail -n 1 $W/tests.txt; grep -E "^FAILED|^ERROR" $W/tests.txt | head -8
wait; echo "accuracy done $(( $(date +%s) - T0 )) s"; grep -A4 "^## Flags" $W/accuracy.md | head -5
timeout 40 python3 -m bench.stress --seconds 10 --out $W/stress > $W/stress.txt 2>&1
echo "stress exit $? $(( $(date +%s) - T0 )) s"; tail -4 $W/stress.txt
gzip -f $W/*.log
