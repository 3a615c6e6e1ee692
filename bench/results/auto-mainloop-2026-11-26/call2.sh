#!/usr/bin/env bash
# Device call 2 (README.md here): AUTO's epilogue with a thread-uniform fast path (every factor 2^-(r + c) of a
# thread's outputs a normal float: an add and a multiply an output, times_pow2's bits). The AUTO GPU tests (bits
# against the plain route and the lab); bench.auto at 4096^3 and 8192^3; ncu as call 1.
set -o pipefail
export PYTHONUNBUFFERED=1
D=$PWD/bench/results/auto-mainloop-2026-11-26
W=/tmp/a2; rm -rf $W; mkdir -p $W
trap 'gzip -f $W/ncu.csv; tar czf $OUT/call2.tgz -C $W .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"
timeout 150 python3 -m pytest -q -p no:cacheprovider -rfEs -n 12 tests/test_auto_gpu.py tests/test_auto_fused_gpu.py \
  tests/test_auto_scaled_gpu.py tests/test_numerics_auto_blocks.py tests/test_numerics_auto_fused.py > $W/tests.txt 2>&1
echo "tests exit $?"; tail -n 1 $W/tests.txt; grep -E "^FAILED|^ERROR" $W/tests.txt | head -12
timeout 150 python3 -m bench.auto --sizes 4096,8192 --out $W/auto > $W/auto.log 2>&1
echo "auto exit $?"; grep -E "^\| (4096|8192) " $W/auto/table.md | grep -E "halfhalf|auto|tf32tf32" | head -12
cd /tmp && timeout 200 ncu --clock-control none --kernel-name regex:planes_wgmma --launch-skip 3 \
  --section SpeedOfLight --section LaunchStats --section Occupancy --section WarpStateStats --section SchedulerStats \
  --section MemoryWorkloadAnalysis --section InstructionStats --csv --page details \
  python3 $D/ncu_driver.py > $W/ncu.csv 2> $W/ncu.err
echo "ncu exit $?"; grep -c "planes_wgmma" $W/ncu.csv
