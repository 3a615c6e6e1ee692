#!/usr/bin/env bash
# Device call 6 (README.md here): main's final tree: the accuracy suite (bench --sections accuracy: the paper's
# Figure 1 over k and its exponent types, every method against FP64).
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/s6; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call6.tgz -C $W .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"
timeout 400 python3 -m bench --sections accuracy --no-xla --out $W/accuracy > $W/accuracy.log 2>&1
echo "accuracy exit $?"; grep -iE "flag|not ok" $W/accuracy/table.md | head -8
