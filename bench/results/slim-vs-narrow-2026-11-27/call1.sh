#!/usr/bin/env bash
# Device call 1 (README.md here): the random sample's products below 0.95x SGEMM that tf32tf32 runs on simt's slim tiles
# (one side 9-32 against k in the thousands): the planner's route against fused_wgmma's narrow tiles and fused_mma's
# 32-wide tile pinned, in one process beside cuBLAS, NN and TT.
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/s1; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call1.tgz -C $W .' EXIT
T0=$(date +%s)
python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real \
  -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $? $(( $(date +%s) - T0 )) s"; tail -1 $W/build.txt
SHAPES="18,8986,1930;9001,2785,19;5619,2343,9;6255,1285,14;9331,7586,22;26,7919,2179;19,6865,2052;11219,1468,10"
SHAPES="$SHAPES;20,2582,14679;3892,10057,22;2829,3710,4"
for lay in NN TT; do
  timeout 200 python3 tools/device.py route-times --shapes "$SHAPES" --modes tf32tf32 --routes default \
    --env ECGEMM_FAMILY=fused_wgmma:narrow,fused_mma:32,simt --layouts $lay > $W/route-times-$lay.txt 2>&1
  echo "route-times $lay exit $? $(( $(date +%s) - T0 )) s"
  grep -E "cublas| x[ 0-9.]+ " $W/route-times-$lay.txt | cut -c1-100
done
echo "done $(( $(date +%s) - T0 )) s"
