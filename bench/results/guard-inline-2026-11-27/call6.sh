#!/usr/bin/env bash
# Device call 6 (README.md here): consume with FP32 stages frees a slot as mbarrier_race.cu's variant 2 (lane 0 reads the
# flag and arrives for its warp, count 32; after an FP32 stage every lane arrives for itself): the probe's variant 2 and
# the kernels under racecheck; the AUTO and fused_wgmma GPU tests; AUTO / tf32tf32 pinned on two shapes.
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/g6; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call6.tgz -C $W .' EXIT
T0=$(date +%s)
D=bench/results/guard-inline-2026-11-27
nvcc -std=c++17 -arch=sm_90a -I libecgemm/kernels/sm90 $D/mbarrier_race.cu -o $W/mbarrier_race > $W/probe-build.txt 2>&1
timeout 30 compute-sanitizer --tool racecheck --print-limit 6 $W/mbarrier_race 2 > $W/racecheck-probe2.txt 2>&1
echo "probe variant 2 exit $?"; grep -E "SUMMARY|sum" $W/racecheck-probe2.txt
python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real \
  -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $? $(( $(date +%s) - T0 )) s"; tail -1 $W/build.txt
SEL="only_the_tiles or (wide_everywhere and 70-64-66) or (class_mapped and 130)"
timeout 100 python3 tools/device.py sanitizer --tools racecheck --timeout 95 --log racecheck.txt -- \
  tests/test_auto_fused_wgmma_gpu.py -k "$SEL" 2>&1 | tail -2
cp $OUT/racecheck.txt $W/ 2>/dev/null; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|passed|failed" $W/racecheck.txt | sort | uniq -c
echo "racecheck done $(( $(date +%s) - T0 )) s"
timeout 110 python3 -m pytest -q -p no:cacheprovider -rfE -n 8 tests/test_auto_fused_wgmma_gpu.py \
  tests/test_fused_wgmma_gpu.py > $W/pytest.txt 2>&1
echo "pytest exit $? $(( $(date +%s) - T0 )) s"; grep -E "passed|failed|FAILED|Error" $W/pytest.txt | cut -c1-300 | head -20
timeout 40 python3 tools/device.py route-times --shapes "2048,2048,2048;64,4096,8192" --modes tf32tf32,auto \
  --routes fused_wgmma > $W/route-times.txt 2>&1
echo "route-times exit $? $(( $(date +%s) - T0 )) s"; grep -E "cublas|fused_wgmma " $W/route-times.txt | cut -c1-90
