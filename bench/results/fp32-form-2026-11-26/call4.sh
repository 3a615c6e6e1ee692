#!/usr/bin/env bash
# Device call 4 (README.md here): gemv at k <= 7 as one FMA chain an output (gemv.cu: gemv_one_chain_kernel). The GEMV
# and planner GPU tests (the new one: the same bits as simt's strip tile); ab.py over gemv_small_k.txt (the held-out
# sample's 43 GEMVs at k < 8) with the planner's route, gemv and simt pinned; the held-out sample (seed 26).
set -o pipefail
export PYTHONUNBUFFERED=1
R=$PWD; D=$R/bench/results/fp32-form-2026-11-26
AB=$R/bench/results/gemv-2026-11-25/ab.py
W=/tmp/f4; rm -rf $W; mkdir -p $W
trap 'gzip -f $W/random/results.json; tar czf $OUT/call4.tgz -C $W .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"
timeout 150 python3 -m pytest -q -p no:cacheprovider -rfEs -n 12 tests/test_gemv_gpu.py tests/test_planner.py \
  tests/test_planner_gpu.py tests/test_c_batched_gpu.py tests/test_streams_gpu.py > $W/tests.txt 2>&1
echo "tests exit $?"; tail -n 1 $W/tests.txt; grep -E "^FAILED|^ERROR" $W/tests.txt | head -12
(cd /tmp && timeout 100 python3 $AB $D/gemv_small_k.txt $W/ab_small_k.json - gemv simt > $W/ab_small_k.txt 2> $W/ab_small_k.err)
echo "ab exit $?"; tail -n 2 $W/ab_small_k.err
timeout 120 python3 -m bench.random --seed 26 --max-minutes 1.5 --out $W/random > $W/random.md 2> $W/random.log
echo "random exit $?"; grep -E "^\| (tf32tf32|halfhalf|auto) \| [0-9]" $W/random/table.md | head -6
