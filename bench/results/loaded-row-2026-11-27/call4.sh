#!/usr/bin/env bash
# Device call 4 (README.md here): every GPU test on this tree (d7b3f50); two GEMV products priced at half their time
# (along_len_diag.py); the thin calibration (seed 29, min(m, n) <= 4, the families that serve them pinned) on the
# kernel with call 3's registers, for the GEMV rows' next fit.
set -o pipefail
export PYTHONUNBUFFERED=1
D=$PWD/bench/results/loaded-row-2026-11-27
W=/tmp/r4; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call4.tgz -C $W --exclude="*.png" .' EXIT
T0=$(date +%s)
python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real \
  -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $? $(( $(date +%s) - T0 )) s"; tail -2 $W/build.txt > $W/b.t && mv $W/b.t $W/build.txt
(cd /tmp && timeout 60 python3 $D/along_len_diag.py > $W/along_len_diag.txt 2>&1)
echo "diag exit $? $(( $(date +%s) - T0 )) s"; cut -c1-150 $W/along_len_diag.txt
timeout 260 python3 -m pytest -q -p no:cacheprovider -rfE -n 8 tests > $W/tests.txt 2>&1
echo "tests exit $? $(( $(date +%s) - T0 )) s"; tail -n 1 $W/tests.txt; grep -E "^FAILED|^ERROR" $W/tests.txt | head -8
THIN=simt,gemv,gemv:wide,gemv:lines,fused_mma:64,fused_mma:32,fused_mma/fp32
timeout 110 python3 -m bench.random --seed 29 --count 1000 --batched-count 300 --max-width 4 --modes tf32tf32,halfhalf,auto \
  --families $THIN --out $W/thin29 --max-minutes 1.5 --no-plots > $W/thin29.log 2>&1
echo "thin29 exit $? $(( $(date +%s) - T0 )) s"; grep measured $W/thin29/table.md
gzip -f $W/*/results.json $W/*.log
