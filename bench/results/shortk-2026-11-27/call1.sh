#!/usr/bin/env bash
# Device call 1 (README.md here): the short-k routes head to head. Every corrected-mode route at k <= 32 pinned
# (simt's stream and strip tiles, fused_mma's FP32 form, gemv) on the k <= 32 cases of seeds 35-37, beside cuBLAS in
# one process: the data their cost rows are refitted on. Then every GPU test on this tree (c64980c and the simt pins).
set -o pipefail
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
W=/tmp/k1; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call1.tgz -C $W --exclude="*.png" .' EXIT
T0=$(date +%s)
python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real \
  -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $? $(( $(date +%s) - T0 )) s"; tail -1 $W/build.txt
for s in 35 36 37; do
  timeout 75 python3 -m bench.random --seed $s --max-k 32 --modes tf32tf32 --max-minutes 1.0 --no-plots \
    --families simt:stream,simt:strips,fused_mma:32/fp32,gemv --out $W/cal-$s > $W/cal-$s.log 2>&1
  echo "cal $s exit $? $(( $(date +%s) - T0 )) s"; tail -2 $W/cal-$s.log | cut -c1-200
done
timeout 250 python3 -m pytest -q -p no:cacheprovider -rfE -n 8 tests > $W/pytest.txt 2>&1
echo "pytest exit $? $(( $(date +%s) - T0 )) s"; grep -E "^FAILED|^ERROR| passed| failed" $W/pytest.txt | cut -c1-250 | head -20
gzip -f $W/cal-*/results.json $W/*.log
echo "done $(( $(date +%s) - T0 )) s"
