#!/usr/bin/env bash
# Device call 1 (README.md here): main (20eb769) checked on the GPU before new work; AUTO's accuracy
# gate on today's planner; tf32tf32's residual against SGEMM on wide-range data by family and
# split (which routes' promotion chains exceed SGEMM's error); stress; memcheck over the split-K
# reducers.
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/g1; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call1.tgz -C $W .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"
timeout 100 python3 -m pytest -q -p no:cacheprovider -rfEs -n 8 tests/test_gpu_properties.py > $W/properties.txt 2>&1
echo "properties exit $?"; tail -1 $W/properties.txt; grep -E "^FAILED|^ERROR" $W/properties.txt | head
timeout 120 python3 -m bench.auto_gate --out $W/gate > $W/gate.log 2>&1
echo "gate exit $?"; grep -E "AUTO above" $W/gate/table.md
S=256x1024x256,256x4096x256,1024x4096x1024
for fam in fused_mma:64 fused_mma:32 fused_wgmma planes; do
  for lim in default 0; do
    d=$W/fam-${fam/:/}-$lim
    if [ $lim = 0 ]; then export ECGEMM_WORKSPACE_LIMIT=0; else unset ECGEMM_WORKSPACE_LIMIT; fi
    ECGEMM_FAMILY=$fam ECGEMM_VERBOSE=1 timeout 60 python3 -m bench.auto_gate --shapes $S --out $d > $d.log 2>&1
    echo "$fam limit=$lim exit $?"; grep "| tf32tf32 |" $d/table.md | awk -F'|' '{printf "%s%s %s/%s; ", $2,$3,$6,$8} END {print ""}'
  done
done
unset ECGEMM_WORKSPACE_LIMIT
timeout 90 python3 -m bench.stress --seconds 8 --out $W/stress > $W/stress.log 2>&1
echo "stress exit $?"; tail -4 $W/stress.log
timeout 120 compute-sanitizer --tool memcheck --kernel-name regex:reduce_ \
  python3 -m pytest -q -p no:cacheprovider tests/test_fused_mma_gpu.py tests/test_simt_stream_gpu.py \
  -k "long_k or (tile64 and batches)" > $W/memcheck.txt 2>&1
echo "memcheck exit $?"; grep -E "ERROR SUMMARY|passed|failed" $W/memcheck.txt | tail -3
