#!/usr/bin/env bash
# Device call 1 (README.md here): a calibration of every kernel family on the tree as it is (the narrow tiles'
# N = 64 rows added, priced as the narrow rows until fitted): seed 29, every family pinned, the whole sample; then
# seeds 30 and 31 on the products with a side <= 64 (--max-width 64), the Tensor Core families that take them, for
# the narrow tiles' rows. The fit is made on the CPU from these runs (tools/fit_cost_model.py).
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/n1; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call1.tgz -C $W --exclude="*.png" .' EXIT
T0=$(date +%s)
python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real \
  --target /tmp/site -C build-dir=/tmp/b . > $W/build.txt 2>&1
echo "build exit $? $(( $(date +%s) - T0 )) s"; tail -2 $W/build.txt > $W/build.t && mv $W/build.t $W/build.txt
export ECGEMM_LIBRARY=$(ls /tmp/site/ecgemm/lib/libecgemm.so* | head -1)
export PYTHONPATH=/tmp/site
ALL=simt,gemv,gemv:wide,gemv:lines,planes,fused_wgmma,fused_wgmma:narrow,fused_mma:64,fused_mma:32,fused_mma:64/unsplit,fused_mma:32/unsplit,fused_mma/fp32
timeout 300 python3 -m bench.random --seed 29 --count 1000 --batched-count 300 --modes tf32tf32,halfhalf,auto \
  --families $ALL --out $W/all --max-minutes 4.6 --no-plots > $W/all.log 2>&1
echo "all exit $? $(( $(date +%s) - T0 )) s"; grep measured $W/all/table.md
for s in 30 31; do
  timeout 100 python3 -m bench.random --seed $s --count 1000 --batched-count 300 --max-width 64 --modes tf32tf32,halfhalf \
    --families fused_wgmma,fused_wgmma:narrow,fused_mma:64,fused_mma:32 --out $W/narrow$s --max-minutes 1.4 --no-plots \
    > $W/narrow$s.log 2>&1
  echo "narrow $s exit $? $(( $(date +%s) - T0 )) s"; grep measured $W/narrow$s/table.md
done
gzip -f $W/*/results.json $W/*.log
