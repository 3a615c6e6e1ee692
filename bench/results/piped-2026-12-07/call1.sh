#!/usr/bin/env bash
# Device call 1 (README.md): the landed tree's fused_mma kernels against tiles-2026-12-02 call 4's hash (that tree
# never ran on a GPU); simt's piped tiles (new, offered to pins only): their GPU tests, every tile pinned on seed 26's
# misses (ab.py) beside the planner, simt's old tile and cuBLAS; then the GPU tests of the families and entry points
# the change touches, in the time left.
set -o pipefail
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
D=bench/results/piped-2026-12-07
T0=$(date +%s); BUDGET=${BUDGET:-585}  # seconds this command may take
python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real \
  -C build-dir=/tmp/b1 . > $OUT/build.txt 2>&1; echo "build exit $? $(( $(date +%s) - T0 )) s"; tail -1 $OUT/build.txt
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv,noheader
timeout 90 python3 -m pytest -q -p no:cacheprovider -rfE -n 8 tests/test_simt_piped_gpu.py > $OUT/tests-piped.txt 2>&1
echo "piped tests exit $? $(( $(date +%s) - T0 )) s"; tail -n 1 $OUT/tests-piped.txt
grep -E "^FAILED|^ERROR" $OUT/tests-piped.txt | cut -c1-200 | head
timeout 60 python3 tools/device.py hash --family fused_mma --log hash.txt > /dev/null 2>&1
cmp $OUT/hash.txt $D/hash_tiles_call4.txt && echo "hash: the landed fused_mma = tiles call 4's ($(wc -l < $OUT/hash.txt) lines)"
echo "hash done $(( $(date +%s) - T0 )) s"
LEFT=$(( BUDGET - ($(date +%s) - T0) ))
timeout $(( LEFT / 2 )) python3 $D/ab.py $D/cases.txt $OUT/ab.jsonl > $OUT/ab.txt 2>&1; echo "ab exit $? $(( $(date +%s) - T0 )) s"
python3 $D/summary.py $OUT/ab.jsonl
LEFT=$(( BUDGET - ($(date +%s) - T0) ))
timeout $LEFT python3 -m pytest -q -p no:cacheprovider -rfE -n 12 tests/test_fused_mma_gpu.py tests/test_simt_stream_gpu.py \
  tests/test_planner_gpu.py tests/test_streams_gpu.py tests/test_c_batched_gpu.py tests/test_python_gpu.py > $OUT/tests.txt 2>&1
echo "suite exit $? $(( $(date +%s) - T0 )) s"; tail -n 1 $OUT/tests.txt; grep -E "^FAILED|^ERROR" $OUT/tests.txt | cut -c1-200 | head
