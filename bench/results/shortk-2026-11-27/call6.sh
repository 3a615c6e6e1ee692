#!/usr/bin/env bash
# Device call 6 (README.md here): where the stream tile's time goes on C whose columns start off a 16-byte boundary.
# ncu at 3950 x 8 x 3687 (off) and 3688 (aligned) on this tree's stream tile and cuBLAS, and on the tree with
# call6_plain_stores.patch (C's stores without evict-first: a sector two CTAs share may otherwise leave L2 half
# written and be read back from DRAM to merge); then store_ab.py, base / plain (base, new, new, base).
set -o pipefail
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
D=bench/results/shortk-2026-11-27
W=/tmp/k6; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call6.tgz -C $W .' EXIT
T0=$(date +%s)
rm -rf /tmp/new && mkdir /tmp/new && tar c --exclude=./bench/results --exclude=./.device --exclude=./.git . | tar x -C /tmp/new
patch -d /tmp/new -p1 < $D/call6_plain_stores.patch > $W/patch.txt || echo "patch failed"
PIP="python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real"
$PIP -C build-dir=/tmp/b6-new --target /tmp/site-new /tmp/new > $W/build-new.txt 2>&1 &
$PIP -C build-dir=/tmp/b6-base . > $W/build-base.txt 2>&1; echo "build base exit $? $(( $(date +%s) - T0 )) s"
wait $!; echo "build new exit $? $(( $(date +%s) - T0 )) s"
L=bench/results/sweep-2026-11-27/lab_k32.py
M=lts__t_sectors_op_write.sum,lts__t_requests_op_write.sum,dram__bytes_write.sum,dram__bytes_read.sum,smsp__inst_executed_op_global_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,smsp__inst_executed.sum,gpu__time_duration.sum,lts__throughput.avg.pct_of_peak_sustained_elapsed,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active
for job in base:3687:stream base:3688:stream base:3687:cublas base:3688:cublas plain:3687:stream plain:3688:stream; do
  IFS=: read -r tree n route <<< "$job"
  P=$PWD; [[ $tree == plain ]] && P=/tmp/site-new:$PWD
  PYTHONPATH=$P timeout 60 ncu --clock-control none --metrics $M --section WarpStateStats --profile-from-start off \
    --launch-skip 1 --launch-count 1 --csv --page details python3 $L 3950,8,$n NN $route > $W/ncu-$tree-$n-$route.csv 2>> $W/ncu.log
  echo "ncu $job exit $? $(( $(date +%s) - T0 )) s"
done
for f in $W/ncu-*.csv; do echo "== $(basename $f)"; python3 - "$f" <<'PY'
import csv, sys
rows = list(csv.reader(l for l in open(sys.argv[1]) if l.startswith('"')))
h = rows[0]
for r in rows[1:]:
    name, value = r[h.index("Metric Name")], r[h.index("Metric Value")]
    if not name.startswith("Stall") or float(value.replace(",", "") or 0) > 0.5:
        print(f"{r[h.index('Kernel Name')][:28]} | {name}: {value} {r[h.index('Metric Unit')]}")
PY
done > $OUT/ncu.txt
for run in base1 new1 new2 base2; do
  P=$PWD; [[ $run == new* ]] && P=/tmp/site-new:$PWD
  PYTHONPATH=$P timeout 70 python3 $D/store_ab.py $W/plain-$run.jsonl > /dev/null 2> $W/plain-$run.log
  echo "store_ab $run exit $? $(( $(date +%s) - T0 )) s"
done
python3 $D/summarize_store.py $W/plain-{base1,new1,new2,base2}.jsonl > $OUT/plain.md; tail -4 $OUT/plain.md
echo "done $(( $(date +%s) - T0 )) s"
