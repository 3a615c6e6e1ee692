#!/usr/bin/env bash
# Device call 4 (same machine as call 3): host cost per call, new and old interleaved (the
# run-to-run spread); throughput on a shape list, new and old build in one call (8192^3 and
# the shape classes unchanged); the random-shape sweep (bench.random) on the new build;
# ecgemm.jax's tests.
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/w4; mkdir -p $W
trap 'tar czf $OUT/call4.tgz -C $W .' EXIT
for run in new1 old1 new2; do
  case $run in old*) export PYTHONPATH=/tmp/oldsite ;; *) unset PYTHONPATH ;; esac
  timeout 70 python3 -m bench.overhead --out $W/overhead_$run > $W/overhead_$run.log 2>&1
  echo "$run: $(grep -E 'PyTorch \(CAI, fast path\)|PyTorch, out= \(fast|a @ b \(cuBLAS SGEMM\)|CuPy \(CAI|ecgemm_sgemm tf32tf32|scratch' $W/overhead_$run/table.md | cut -d'|' -f2,3 | tr '\n' ';')"
done
SHAPES=8192x8192x8192,4096x4096x4096,2048x2048x2048,1024x1024x1024,512x512x512,256x256x256,64x8192x8192,8192x64x8192,128x16384x128,1x4096x4096
for run in new old; do
  case $run in old) export PYTHONPATH=/tmp/oldsite ;; *) unset PYTHONPATH ;; esac
  timeout 150 python3 -m bench --shapes $SHAPES --sections throughput --no-xla --no-plots \
    --methods ecgemm_tf32tf32,ecgemm_halfhalf,ecgemm_auto --out $W/shapes_$run > $W/shapes_$run.log 2>&1
  echo "shapes $run exit $?"
done
unset PYTHONPATH
timeout 200 python3 -m bench.random --out $W/random --max-minutes 2.5 > $W/random.log 2>&1; echo "random exit $?"
grep -A12 "^| mode" $W/random/table.md | head -16
timeout 90 python3 -m pytest -q -p no:cacheprovider -rfEs tests/test_jax.py tests/test_jax_gpu.py 2>&1 | tail -6
