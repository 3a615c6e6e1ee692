#!/usr/bin/env bash
# Device call 1 (README.md here): AUTO's raw pass inline in fused_wgmma's TMA kernels (the class-mapped and copying
# kernels keep raw_unit out of line): build; the AUTO and fused-family GPU tests (with the new one: wide stages in
# class-mapped and copied operands give the TMA bits); compute-sanitizer memcheck over AUTO's fused_wgmma tests;
# GPU time of AUTO against tf32tf32 on the family pinned, aligned and not (call 2 of auto-wgmma-2026-11-27's shapes).
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/g1; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call1.tgz -C $W --exclude="*.png" .' EXIT
T0=$(date +%s)
python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real \
  -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $? $(( $(date +%s) - T0 )) s"; grep -c "spill" $W/build.txt; tail -2 $W/build.txt
timeout 200 python3 -m pytest -q -p no:cacheprovider -rfE -n 8 tests/test_auto_fused_wgmma_gpu.py \
  tests/test_fused_wgmma_gpu.py tests/test_fused_wgmma_narrow_gpu.py tests/test_auto_fused_gpu.py > $W/pytest.txt 2>&1
echo "pytest exit $? $(( $(date +%s) - T0 )) s"; grep -E "passed|failed|FAILED|Error" $W/pytest.txt | cut -c1-300 | head -30
SHAPES="4096,4096,4096;2048,2048,2048;1024,8192,1024;64,4096,8192;8192,512,48;3000,700,40;40,20000,40"
timeout 80 python3 tools/device.py route-times --shapes "$SHAPES" --modes tf32tf32,auto --routes fused_wgmma \
  --env ECGEMM_FAMILY=fused_wgmma:narrow > $W/route-times.txt 2>&1
echo "route-times exit $? $(( $(date +%s) - T0 )) s"; cut -c1-200 $W/route-times.txt | head -60
timeout 60 python3 tools/device.py route-times --shapes "2048,2048,2048;64,4096,8192;8192,512,48" \
  --modes tf32tf32,auto --routes fused_wgmma --pad 1 --layouts NN,TN > $W/route-times-pad.txt 2>&1
echo "route-times pad exit $? $(( $(date +%s) - T0 )) s"; cut -c1-200 $W/route-times-pad.txt | head -30
timeout 130 python3 tools/device.py sanitizer --tools memcheck --timeout 120 --log memcheck.txt -- \
  tests/test_auto_fused_wgmma_gpu.py -k "only_the_tiles or wide_everywhere or (class_mapped and 130)" 2>&1 | tail -3
cp $OUT/memcheck.txt $W/ 2>/dev/null; grep -E "ERROR SUMMARY|passed|failed" $W/memcheck.txt | sort | uniq -c | head
echo "done $(( $(date +%s) - T0 )) s"
