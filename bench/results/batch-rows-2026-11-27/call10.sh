#!/usr/bin/env bash
# Device call 10 (README.md here): the thin products' calibration again (seeds 29 and 30, min(m, n) <= 4, the families
# that serve them pinned) on the tree whose GEMV kernel loads contiguous thin columns without staging (GemvThin::kLoaded),
# for the cost rows of both ways.
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/r10; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call10.tgz -C $W .' EXIT
T0=$(date +%s)
python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real \
  -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $? $(( $(date +%s) - T0 )) s"; tail -2 $W/build.txt > $W/b.t && mv $W/b.t $W/build.txt
THIN=simt,gemv,gemv:wide,gemv:lines,fused_mma:64,fused_mma:32,fused_mma/fp32
for s in 29 30; do
  timeout 120 python3 -m bench.random --seed $s --count 1000 --batched-count 300 --max-width 4 --modes tf32tf32,halfhalf,auto \
    --families $THIN --out $W/thin$s --max-minutes 1.6 --no-plots > $W/thin$s.log 2>&1
  echo "thin$s exit $? $(( $(date +%s) - T0 )) s"; grep measured $W/thin$s/table.md
done
gzip -f $W/*/results.json $W/*.log
