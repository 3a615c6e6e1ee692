#!/usr/bin/env bash
# On the GPU machine: ncu (clocks not locked) on the wgmma mainloop of one 4096^3 call,
# halfhalf's plain kernel beside AUTO's (urand data: AUTO scales and takes halfhalf's
# route): time, instructions, warp stalls. $OUT: ncu.txt
set -o pipefail
. "$(dirname "$0")/device_install.sh"
cat > /tmp/one.py <<'PY'
import sys, torch, ecgemm
a = torch.rand(4096, 4096, device="cuda") * 2 - 1; b = torch.rand(4096, 4096, device="cuda") * 2 - 1
out = torch.empty(4096, 4096, device="cuda")
for _ in range(3): ecgemm.matmul(a, b, out=out, mode=sys.argv[1])
torch.cuda.synchronize()
PY
STALLS="barrier long_scoreboard short_scoreboard mio_throttle math_pipe_throttle wait not_selected lg_throttle dispatch_stall no_instruction branch_resolving selected sleeping"
METRICS=$(for x in $STALLS; do printf "smsp__average_warps_issue_stalled_%s_per_issue_active.ratio," $x; done)gpu__time_duration.sum,smsp__inst_executed.sum,sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active,dram__throughput.avg.pct_of_peak_sustained_elapsed,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active
for mode in halfhalf auto; do
  echo "=== $mode"
  timeout 120 ncu --clock-control none -k regex:"sm90_tc_(gemm|auto)_kernel" -c 1 -s 1 --metrics "$METRICS" \
    python3 /tmp/one.py $mode 2>&1 | grep -E "^\s+(gpu__|smsp__|sm__|dram__|launch__)" | sed 's/per_issue_active.ratio//'
done 2>&1 | tee "$OUT/ncu.txt"
