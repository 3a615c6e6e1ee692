#!/usr/bin/env bash
# Device call 8 (README.md here): the final tree (b9cd77f) on the held-out random sample (seed 26) and the accuracy
# suite: README's random-sample row.
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/n8; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call8.tgz -C $W --exclude="*.png" .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"
timeout 120 python3 -m bench.random --seed 26 --out $W/random --max-minutes 1.4 --no-plots > $W/random.log 2>&1
echo "random exit $?"; grep -E "^\| (tf32tf32|halfhalf|auto) \| (1018|200) " $W/random/table.md
gzip -f $W/random/results.json
timeout 100 python3 -m bench --sections accuracy --no-xla --max-minutes 1.2 --no-plots --out $W/accuracy > $W/accuracy.md 2> $W/accuracy.log
echo "accuracy exit $?"; grep -A3 "^## Flags" $W/accuracy.md | head -4
