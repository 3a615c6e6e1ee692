#!/usr/bin/env bash
# Device call 3 (README.md): a calibration on main's kernels (fused_mma's 32-wide tile compensated since
# promotion-2026-11-28, its rows fitted before that): seed 41, the families that compete for small products pinned,
# tf32tf32 and halfhalf. The fit is made on the CPU from it (tools/fit_cost_model.py).
set -o pipefail
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
W=$OUT/cal41
T0=$(date +%s)
python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real \
  -C build-dir=/tmp/b1 . > $OUT/build.txt 2>&1; echo "build exit $? $(( $(date +%s) - T0 )) s"; tail -2 $OUT/build.txt
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv,noheader
FAM=simt,gemv,planes,fused_wgmma,fused_wgmma:narrow,fused_mma:64,fused_mma:32
timeout 330 python3 -m bench.random --seed 41 --count 1000 --batched-count 300 --modes tf32tf32,halfhalf \
  --families $FAM --out $W --max-minutes 4.2 --no-plots > $OUT/cal41.log 2>&1
echo "calibration exit $? $(( $(date +%s) - T0 )) s"; grep -i measured $W/table.md | head -3
gzip -f $W/results.json $OUT/cal41.log
echo "all done $(( $(date +%s) - T0 )) s"
