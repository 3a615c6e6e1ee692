#!/usr/bin/env bash
# Device call 7 (README.md here): call 5 with 4 lanes a line (lane g the chain of k-steps 4g .. 4g + 3, added in k order by shuffles). The
# GEMV, planner and FP32-form GPU tests (the new one: the same bits as simt's strip tile below k = 8, as the FP32 form
# from it); ab.py over gemv_short_k.txt (the held-out sample's 75 GEMVs at k <= 16) with the planner's route, gemv and simt pinned; the held-out sample (seed 26).
set -o pipefail
export PYTHONUNBUFFERED=1
R=$PWD; D=$R/bench/results/fp32-form-2026-11-26
AB=$R/bench/results/gemv-2026-11-25/ab.py
W=/tmp/f7; rm -rf $W; mkdir -p $W
trap 'gzip -f $W/random/results.json; tar czf $OUT/call7.tgz -C $W .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"
timeout 150 python3 -m pytest -q -p no:cacheprovider -rfEs -n 12 tests/test_gemv_gpu.py tests/test_planner.py tests/test_fused_mma_fp32_gpu.py \
  tests/test_planner_gpu.py tests/test_c_batched_gpu.py tests/test_streams_gpu.py > $W/tests.txt 2>&1
echo "tests exit $?"; tail -n 1 $W/tests.txt; grep -E "^FAILED|^ERROR" $W/tests.txt | head -12
(cd /tmp && timeout 100 python3 $AB $D/gemv_short_k.txt $W/ab_short_k.json - gemv simt > $W/ab_short_k.txt 2> $W/ab_short_k.err)
echo "ab exit $?"; tail -n 2 $W/ab_short_k.err
timeout 120 python3 -m bench.random --seed 26 --max-minutes 1.5 --out $W/random > $W/random.md 2> $W/random.log
echo "random exit $?"; grep -E "^\| (tf32tf32|halfhalf|auto) \| [0-9]" $W/random/table.md | head -6
