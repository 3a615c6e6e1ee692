#!/usr/bin/env bash
# Device call 1 (README.md here): AUTO's fused_wgmma consumers freeing a slot with per-lane arrivals (per-lane.patch: lane
# 0 reads the flag for its warp; after a Tensor Core stage it arrives with count 32, after an FP32 stage every lane for
# itself) against the tree (__syncwarp, then one arrival a warp). AUTO / tf32tf32 on the same fused_wgmma plans, each
# tree in its own process (tf32tf32's kernels are the same in both); then, patched: racecheck over AUTO's tests, AUTO's
# and fused_wgmma's GPU tests, and mbarrier_race.cu's five variants under racecheck.
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/l1; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call1.tgz -C $W .' EXIT
T0=$(date +%s)
D=bench/results/lane-arrivals-2026-11-27
SHAPES="2048,2048,2048;4096,4096,4096;64,4096,8192;128,2048,1024"
install() {
  python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real \
    -C build-dir=/tmp/bnew . > $W/build-$1.txt 2>&1
  echo "build $1 exit $? $(( $(date +%s) - T0 )) s"; tail -1 $W/build-$1.txt
}
times() {
  timeout 60 python3 tools/device.py route-times --shapes "$SHAPES" --modes tf32tf32,auto --routes fused_wgmma \
    > $W/route-times-$1.txt 2>&1
  echo "route-times $1 exit $? $(( $(date +%s) - T0 )) s"; grep -E "cublas|fused_wgmma " $W/route-times-$1.txt | cut -c1-80
}
install tree; times tree
patch -p1 < $D/per-lane.patch > $W/patch.txt 2>&1; echo "patch exit $?"
install lanes; times lanes
SEL="only_the_tiles or (wide_everywhere and 70-64-66) or (class_mapped and 130)"
timeout 100 python3 tools/device.py sanitizer --tools racecheck --timeout 95 --log racecheck.txt -- \
  tests/test_auto_fused_wgmma_gpu.py -k "$SEL" 2>&1 | tail -2
cp $OUT/racecheck.txt $W/ 2>/dev/null; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|passed|failed" $W/racecheck.txt | sort | uniq -c
echo "racecheck done $(( $(date +%s) - T0 )) s"
timeout 150 python3 -m pytest -q -p no:cacheprovider -rfE -n 8 tests/test_auto_fused_wgmma_gpu.py \
  tests/test_fused_wgmma_gpu.py tests/test_auto_gpu.py > $W/pytest.txt 2>&1
echo "pytest exit $? $(( $(date +%s) - T0 )) s"; grep -E "passed|failed|FAILED|Error" $W/pytest.txt | cut -c1-300 | head -20
nvcc -std=c++17 -arch=sm_90a -I libecgemm/kernels/sm90 bench/results/guard-inline-2026-11-27/mbarrier_race.cu \
  -o $W/mbarrier_race > $W/probe-build.txt 2>&1
for v in 0 1 2 3 4; do
  timeout 30 compute-sanitizer --tool racecheck --racecheck-report all --print-limit 6 $W/mbarrier_race $v \
    > $W/racecheck-probe$v.txt 2>&1
  echo "probe variant $v exit $?"; grep -E "SUMMARY|sum" $W/racecheck-probe$v.txt
done
gzip -f $W/racecheck.txt 2>/dev/null
echo "done $(( $(date +%s) - T0 )) s"
