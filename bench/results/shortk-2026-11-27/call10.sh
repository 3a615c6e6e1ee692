#!/usr/bin/env bash
# Device call 10 (README.md here): ncu on the stream tile at k = 1 (store_shifted) where C's columns start off a
# 16-byte boundary, 395 x 1 x 12635 (NN, seed 26's miss), against 12636 (aligned, store_own) and cuBLAS on both:
# where the 30% between the two goes (calls 8-9: 0.88-0.90x cuBLAS off 16 bytes, 1.30x aligned).
set -o pipefail
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
W=/tmp/k10; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call10.tgz -C $W .' EXIT
T0=$(date +%s)
python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real \
  -C build-dir=/tmp/b10 . > $W/build.txt 2>&1
echo "build exit $? $(( $(date +%s) - T0 )) s"
L=bench/results/sweep-2026-11-27/lab_k32.py
M=lts__t_sectors_op_write.sum,lts__t_requests_op_write.sum,dram__bytes_write.sum,dram__bytes_read.sum,smsp__inst_executed_op_global_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,smsp__inst_executed.sum,gpu__time_duration.sum,lts__throughput.avg.pct_of_peak_sustained_elapsed,dram__throughput.avg.pct_of_peak_sustained_elapsed,l1tex__throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active,launch__grid_size,launch__registers_per_thread,sm__cycles_elapsed.avg
for r in lg_throttle long_scoreboard drain barrier wait short_scoreboard mio_throttle membar no_instruction; do
  M=$M,smsp__average_warps_issue_stalled_${r}_per_issue_active.ratio
done
for job in 12635:stream 12636:stream 12635:cublas 12636:cublas; do
  IFS=: read -r n route <<< "$job"
  timeout 60 ncu --clock-control none --metrics $M --section WarpStateStats --profile-from-start off --launch-skip 1 \
    --launch-count 1 --csv --page details python3 $L 395,1,$n NN $route > $W/ncu-$n-$route.csv 2>> $W/ncu.log
  echo "ncu $job exit $? $(( $(date +%s) - T0 )) s"
done
for f in $W/ncu-*.csv; do echo "== $(basename $f)"; python3 - "$f" <<'PY'
import csv, sys
rows = list(csv.reader(l for l in open(sys.argv[1]) if l.startswith('"')))
h = rows[0]
for r in rows[1:]:
    name, value = r[h.index("Metric Name")], r[h.index("Metric Value")]
    if not name.startswith("Stall") or float(value.replace(",", "") or 0) > 0.3:
        print(f"{r[h.index('Kernel Name')][:28]} | {name}: {value} {r[h.index('Metric Unit')]}")
PY
done > $OUT/ncu.txt
echo "done $(( $(date +%s) - T0 )) s"
