#!/usr/bin/env bash
# Device call 1 (README.md): every family pinned on seed 26's slowest small products (pins.py); ncu over
# cuBLAS's and fused_mma's kernels on three of them (prof.py); fused_mma's registers.
set -o pipefail
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
D=bench/results/tiles-2026-12-02
T0=$(date +%s)
python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real \
  -C build-dir=/tmp/b1 . > $OUT/build.txt 2>&1; echo "build exit $? $(( $(date +%s) - T0 )) s"; tail -2 $OUT/build.txt
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv,noheader
timeout 240 python3 $D/pins.py $OUT/pins.jsonl 2>&1 | tee $OUT/pins.txt | cut -c1-220
echo "pins done $(( $(date +%s) - T0 )) s"
timeout 150 ncu --clock-control none --section SpeedOfLight --section Occupancy --section LaunchStats \
  --section WarpStateStats --section MemoryWorkloadAnalysis --launch-skip 0 python3 $D/prof.py > $OUT/ncu.txt 2>&1
echo "ncu exit $? $(( $(date +%s) - T0 )) s"; grep -E "^  [a-z_]+.*\(|Duration|DRAM Throughput|Achieved Occupancy|Registers Per|Warp Cycles Per Issued" $OUT/ncu.txt | head -80
SO=$(python3 -c "import ecgemm,os,glob;print(glob.glob(os.path.dirname(ecgemm.__file__)+'/**/libecgemm*.so*',recursive=True)[0])")
cuobjdump --dump-resource-usage $SO 2>/dev/null | grep -A1 "fused_mma_kernel" | grep -o "REG:[0-9]*\|Function [^ ]*" | paste - - | c++filt | cut -c1-200 > $OUT/registers.txt
wc -l $OUT/registers.txt; echo "all done $(( $(date +%s) - T0 )) s"
