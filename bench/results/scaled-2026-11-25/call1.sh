#!/usr/bin/env bash
# Device call 1 (README.md here): main (2f83cf2) checked before new work: the accuracy
# suite (not run on this tree last session), AUTO's gate, stress, the short-of-memory test alone.
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/c1; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call1.tgz -C $W .' EXIT
nvidia-smi --query-gpu=name,power.limit,clocks.max.sm --format=csv > $W/gpu.txt
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"
timeout 240 python3 -m bench --sections accuracy --no-xla --max-minutes 3.5 --no-plots --out $W/accuracy > $W/accuracy.md 2> $W/accuracy.log
echo "accuracy exit $?"; grep -iE "above|worse|fail" $W/accuracy.md | head -20
timeout 100 python3 -m bench.auto_gate --out $W/gate > $W/gate.log 2>&1
echo "gate exit $?"; grep -E "AUTO above" $W/gate/table.md
timeout 60 python3 -m bench.stress --seconds 5 --out $W/stress > $W/stress.log 2>&1
echo "stress exit $?"; tail -4 $W/stress.log
timeout 90 python3 -m pytest -q -p no:cacheprovider -rfEs tests/test_streams_gpu.py -k short_of_memory > $W/oom.txt 2>&1
echo "oom exit $?"; tail -2 $W/oom.txt
