#!/usr/bin/env bash
# Device call 1 (README.md): the planes route's persistent walk kernel against the plain one on the same plans:
# bits (tools/device.py hash, planes pinned, ECGEMM_PLANES_WALK=0 and 1), ab.py's times, and the GPU tests that run
# the planes route (default rule: walk on grids of more than one wave).
set -o pipefail
export PYTHONUNBUFFERED=1
D=bench/results/walk-2026-12-01
T0=$(date +%s)
python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real \
  -C build-dir=/tmp/b1 . > $OUT/build.txt 2>&1; echo "build exit $? $(( $(date +%s) - T0 )) s"; tail -3 $OUT/build.txt
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv,noheader
for w in 0 1; do ECGEMM_PLANES_WALK=$w timeout 120 python3 tools/device.py hash --family planes --log hash$w.txt > /dev/null 2>&1; done
cmp $OUT/hash0.txt $OUT/hash1.txt && echo "hash: walk = plain ($(wc -l < $OUT/hash0.txt) lines)"
echo "hash done $(( $(date +%s) - T0 )) s"
timeout 300 python3 $D/ab.py $OUT/ab.jsonl 2>&1 | tee $OUT/ab.txt | cut -c1-150
echo "ab done $(( $(date +%s) - T0 )) s"
timeout 200 python3 -m pytest -q -p no:cacheprovider -rfE -n 8 tests/test_planner_gpu.py tests/test_auto_gpu.py \
  tests/test_c_abi_gpu.py tests/test_streams_gpu.py > $OUT/tests.txt 2>&1
echo "tests exit $? $(( $(date +%s) - T0 )) s"; tail -n 1 $OUT/tests.txt; grep -E "^FAILED|^ERROR" $OUT/tests.txt | cut -c1-200 | head
