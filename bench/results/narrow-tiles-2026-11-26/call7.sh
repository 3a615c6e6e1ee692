#!/usr/bin/env bash
# Device call 7 (README.md here): the committed tree (the narrow tiles offered by the planner) checked once more: the
# fused_wgmma, streams, preload, planner and batched GPU tests; bench.stress 10 s; the held-out sample (seed 26) with its
# results kept for README's row (residuals.py) and plot (bench.random --from-json).
set -o pipefail
export PYTHONUNBUFFERED=1
D=$PWD/bench/results/narrow-tiles-2026-11-26
W=/tmp/w7; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call7.tgz -C $W --exclude="*.png" .' EXIT
T0=$(date +%s)
python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real \
  -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $? $(( $(date +%s) - T0 )) s"
timeout 200 python3 -m pytest -q -p no:cacheprovider -rfEs -n 8 tests/test_fused_wgmma_narrow_gpu.py tests/test_fused_wgmma_gpu.py \
  tests/test_streams_gpu.py tests/test_intercept_gpu.py tests/test_planner_gpu.py tests/test_c_batched_gpu.py > $W/tests.txt 2>&1
echo "tests exit $? $(( $(date +%s) - T0 )) s"; tail -n 1 $W/tests.txt; grep -E "^FAILED|^ERROR" $W/tests.txt | head -8
timeout 40 python3 -m bench.stress --seconds 10 --out $W/stress > $W/stress.txt 2>&1
echo "stress exit $? $(( $(date +%s) - T0 )) s"; grep -E "^\| (none|32 MiB)" $W/stress/table.md
timeout 75 python3 -m bench.random --seed 26 --out $W/random --max-minutes 1.1 --no-plots > $W/random.log 2>&1
echo "random exit $? $(( $(date +%s) - T0 )) s"; grep -E "^\| (tf32tf32|halfhalf|auto) \| (1018|200) " $W/random/table.md
python3 $D/residuals.py $W/random/results.json
gzip -f $W/random/results.json $W/*.log
