#!/usr/bin/env bash
# Device call 3 (README.md here): the same candidates for fused_wgmma (keep_full_grid_split on both families), pinned:
# fused_wgmma against fused_wgmma/unsplit in one process, aligned and with rows off 16 bytes (the general kernels);
# the planner GPU tests (a full-grid split of each family against the same route unsplit).
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/f3; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call3.tgz -C $W .' EXIT
T0=$(date +%s)
python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real \
  -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $? $(( $(date +%s) - T0 )) s"; tail -1 $W/build.txt
timeout 90 python3 -m pytest -q -p no:cacheprovider -rfE -n 4 tests/test_planner_gpu.py > $W/pytest.txt 2>&1
echo "pytest exit $? $(( $(date +%s) - T0 )) s"; grep -E "^FAILED|^ERROR| passed| failed" $W/pytest.txt | cut -c1-300 | head -20
SHAPES="2100,3000,1100;4000,5000,1100;859,4533,2437;3301,4724,721;7612,13347,530;2114,11220,2645;4096,4096,4096;8192,8192,8192"
for pad in 0 1; do
  timeout 150 python3 tools/device.py route-times --shapes "$SHAPES" --modes tf32tf32,halfhalf,auto --routes fused_wgmma \
    --env ECGEMM_FAMILY=fused_wgmma/unsplit --pad $pad > $W/route-times-pad$pad.txt 2>&1
  echo "route-times pad $pad exit $? $(( $(date +%s) - T0 )) s"
  grep -E "cublas|fused_wgmma |unsplit" $W/route-times-pad$pad.txt | cut -c1-90
done
echo "done $(( $(date +%s) - T0 )) s"
