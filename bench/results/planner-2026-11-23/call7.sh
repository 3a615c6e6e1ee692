#!/usr/bin/env bash
# Device call 7: the final tree's accuracy suite (bench --sections accuracy) and host cost per call
# (bench.overhead: the planner now plans every allowed family per call).
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/w7; mkdir -p $W
trap 'tar czf $OUT/call7.tgz -C $W .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"
timeout 200 python3 -m bench --sections accuracy --no-xla --no-plots --out $W/accuracy > $W/accuracy.log 2>&1
echo "accuracy exit $?"; grep -iE "flag|not ok" $W/accuracy/table.md | head -5
timeout 80 python3 -m bench.overhead --out $W/overhead > $W/overhead.log 2>&1
echo "overhead exit $?"; grep -E "a @ b|fast path|ecgemm_sgemm|scratch" $W/overhead/table.md | head -8
