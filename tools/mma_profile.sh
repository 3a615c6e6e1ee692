#!/usr/bin/env bash
# On the GPU machine: ncu (clocks not locked) on the fused mma.sync family's kernel for
# a strided batch of 64^3 products and 512 x 256^3, tf32tf32: occupancy, throughput,
# warp stalls. $OUT: ncu.txt
set -o pipefail
. "$(dirname "$0")/device_install.sh"
cat > /tmp/one.py <<'PY'
import ctypes, sys, torch
sys.path.insert(0, "tools")
from probe import lib, MODES
count, m = int(sys.argv[1]), int(sys.argv[2])
h = ctypes.c_void_p(); lib.ecgemm_create(ctypes.byref(h))
lib.ecgemm_set_stream(h, torch.cuda.current_stream().cuda_stream)
lib.ecgemm_set_mode(h, MODES[sys.argv[3]])
a = torch.rand(count, m, m, device="cuda"); b = torch.rand(count, m, m, device="cuda"); c = torch.empty_like(a)
one, zero = ctypes.c_float(1), ctypes.c_float(0)
for _ in range(3):
    assert lib.ecgemm_sgemm_strided_batched(h, 0, 0, m, m, m, ctypes.addressof(one), a.data_ptr(), m, m*m,
        b.data_ptr(), m, m*m, ctypes.addressof(zero), c.data_ptr(), m, m*m, count) == 0
torch.cuda.synchronize()
PY
STALLS="barrier long_scoreboard short_scoreboard mio_throttle math_pipe_throttle wait not_selected lg_throttle dispatch_stall no_instruction branch_resolving selected"
METRICS=$(for x in $STALLS; do printf "smsp__average_warps_issue_stalled_%s_per_issue_active.ratio," $x; done)sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_alu.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_fma.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum
for spec in "4096 64 tf32tf32" "4096 64 halfhalf" "512 256 tf32tf32"; do
  echo "=== $spec"
  ECGEMM_TC_KERNEL=mma ECGEMM_CORRECTED_ROUTE=tc timeout 120 ncu --clock-control none -k regex:sm80_fused -c 1 -s 1 \
    --section SpeedOfLight --section WarpStateStats --section InstructionStats \
    --metrics "$METRICS" python3 /tmp/one.py $spec 2>&1 | grep -v "^==PROF==" | sed -n '/sm80_fused/,$p' |
    grep -E "^\s+(Duration|Compute|Memory Th|DRAM Th|Executed Ipc|Issue|Warp Cycles|smsp|sm__|Executed Inst|Avg)" | head -60
done 2>&1 | tee "$OUT/ncu.txt"
