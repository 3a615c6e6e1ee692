#!/usr/bin/env bash
# Device call 14 (README.md here): the accuracy suite on the final tree (49595ed: the GEMV change of call 12 in).
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/f14; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call14.tgz -C $W .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"
timeout 100 python3 -m bench --sections accuracy --no-xla --max-minutes 1.2 --no-plots --out $W/accuracy > $W/accuracy.md 2> $W/accuracy.log
echo "accuracy exit $?"; grep -A3 "^## Flags" $W/accuracy.md | head -4
