#!/usr/bin/env bash
# Device call C (README.md): the piped tiles reshaped after call P's ncu (4 x 8, 8 x 4 and 8 x 8 outputs a thread in
# 64-thread CTAs, and 64 x 128 / 128 x 64 tiles of 128 threads at 8 x 8, as cuBLAS's SIMT kernels): their GPU tests,
# then ab.py on the misses with the six tiles pinned beside the planner and cuBLAS, and summary.py.
set -o pipefail
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
D=bench/results/piped-2026-12-07
T0=$(date +%s); BUDGET=${BUDGET:-585}
python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real \
  -C build-dir=/tmp/b1 . > $OUT/build.txt 2>&1; echo "build exit $? $(( $(date +%s) - T0 )) s"; tail -1 $OUT/build.txt
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv,noheader
timeout 120 python3 -m pytest -q -p no:cacheprovider -rfE -n 12 tests/test_simt_piped_gpu.py > $OUT/tests-piped.txt 2>&1
echo "piped tests exit $? $(( $(date +%s) - T0 )) s"; tail -n 1 $OUT/tests-piped.txt
grep -E "^FAILED|^ERROR" $OUT/tests-piped.txt | cut -c1-200 | head
LEFT=$(( BUDGET - ($(date +%s) - T0) - 5 ))
AB_NO_SIMT=1 AB_TILES=piped32x32,piped32x64,piped64x32,piped64x64,piped64x128,piped128x64 \
  timeout $LEFT python3 $D/ab.py $D/cases.txt $OUT/ab.jsonl > $OUT/ab.txt 2>&1; echo "ab exit $? $(( $(date +%s) - T0 )) s"
python3 $D/summary.py $OUT/ab.jsonl
