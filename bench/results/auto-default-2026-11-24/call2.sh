#!/usr/bin/env bash
# Device call 2 (README.md here): AUTO's accuracy gate (bench.auto_gate) on main.
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/a2; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call2.tgz -C $W .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"
timeout 300 python3 -m bench.auto_gate --out $W/gate > $W/gate.log 2>&1
echo "gate exit $?"; grep -E "^\| |AUTO above" $W/gate/table.md | cut -d'|' -f2-8
