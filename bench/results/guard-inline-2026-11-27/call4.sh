#!/usr/bin/env bash
# Device call 4 (README.md here): call 3's racecheck hazards (fp32_stage's loads and the flag word, read by every lane,
# freed by lane 0's arrival) with a __syncwarp before each consumer warp's arrival in AUTO's kernels: racecheck over a
# wider selection; the AUTO and fused-family GPU tests; AUTO / tf32tf32 pinned on three shapes; bench.stress with its new
# case (AUTO on fused_wgmma with 2^40 spikes in A: FP32 stages in some tiles).
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/g4; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call4.tgz -C $W --exclude="*.png" .' EXIT
T0=$(date +%s)
python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real \
  -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $? $(( $(date +%s) - T0 )) s"; tail -1 $W/build.txt
SEL="only_the_tiles or (wide_everywhere and 70-64-66) or (class_mapped and 130)"
timeout 200 python3 tools/device.py sanitizer --tools racecheck --timeout 190 --log racecheck.txt -- \
  tests/test_auto_fused_wgmma_gpu.py -k "$SEL" 2>&1 | tail -2
cp $OUT/racecheck.txt $W/ 2>/dev/null; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|passed|failed" $W/racecheck.txt | sort | uniq -c
echo "racecheck done $(( $(date +%s) - T0 )) s"
timeout 150 python3 -m pytest -q -p no:cacheprovider -rfE -n 8 tests/test_auto_fused_wgmma_gpu.py \
  tests/test_fused_wgmma_gpu.py tests/test_fused_wgmma_narrow_gpu.py > $W/pytest.txt 2>&1
echo "pytest exit $? $(( $(date +%s) - T0 )) s"; grep -E "passed|failed|FAILED|Error" $W/pytest.txt | cut -c1-300 | head -20
timeout 60 python3 tools/device.py route-times --shapes "2048,2048,2048;64,4096,8192;3000,700,40" --modes tf32tf32,auto \
  --routes fused_wgmma > $W/route-times.txt 2>&1
echo "route-times exit $? $(( $(date +%s) - T0 )) s"; grep -E "cublas|fused_wgmma " $W/route-times.txt | cut -c1-90
timeout 40 python3 -m bench.stress --seconds 10 --out $W/stress > $W/stress.txt 2>&1
echo "stress exit $? $(( $(date +%s) - T0 )) s"; grep -E "^\| (none|32 MiB)|spikes" $W/stress/table.md | cut -c1-200
