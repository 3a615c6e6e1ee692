#!/usr/bin/env bash
# Device call 1 (README.md here): the accuracy suite on main as the last session left it (944038c), which that session
# did not get to run; the planner's GPU tests beside it.
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/a1; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call1.tgz -C $W --exclude="*.png" --exclude="results.json*" .' EXIT
T0=$(date +%s)
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $? $(( $(date +%s) - T0 )) s"
timeout 150 python3 -m bench --sections accuracy --no-xla --max-minutes 2 --no-plots --out $W/accuracy > $W/accuracy.md 2> $W/accuracy.log
echo "accuracy exit $? $(( $(date +%s) - T0 )) s"; grep -A6 "^## Flags" $W/accuracy.md | head -8
