#!/usr/bin/env bash
# Device call 1 of this run (README.md here): build the new tree and the previous main
# (a0c3e2c, carried in .old/) side by side; the stream, graph and memory tests on the new
# build; the same reproductions on the old one; output hashes of both builds.
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/w1; mkdir -p $W
trap 'tar czf $OUT/call1.tgz -C $W .' EXIT
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit,memory.total --format=csv > $W/gpu.txt
pip_build() { python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real "$@"; }
(pip_build -C build-dir=/tmp/bnew . > $W/build_new.txt 2>&1; echo "new build exit $?") &
(pip_build -C build-dir=/tmp/bold --target /tmp/oldsite .old > $W/build_old.txt 2>&1; echo "old build exit $?") &
wait
tail -3 $W/build_new.txt $W/build_old.txt
timeout 330 python3 -m pytest -q -p no:cacheprovider -rfEs tests/test_streams_gpu.py \
  tests/test_c_batched_gpu.py 2>&1 | tee $W/new_streams.txt | tail -12
PYTHONPATH=/tmp/oldsite timeout 150 python3 -m pytest -q -p no:cacheprovider -rfE \
  tests/test_streams_gpu.py -k "four_streams or torch_streams or cupy_streams or graph_replayed" \
  2>&1 | tee $W/old_streams.txt | grep -E "passed|failed|FAILED|Error" | tail -30
OUT=$W timeout 100 python3 tools/device.py hash --log hash_new.txt 2>&1 | tail -2
OUT=$W ECGEMM_LIBRARY=/tmp/oldsite/ecgemm/lib/libecgemm.so timeout 100 python3 tools/device.py hash \
  --log hash_old.txt 2>&1 | tail -2
diff <(tail -n +2 $W/hash_old.txt) <(tail -n +2 $W/hash_new.txt) > $W/hash_diff.txt && echo "hash: identical" || { echo "hash: differ"; head $W/hash_diff.txt; }
