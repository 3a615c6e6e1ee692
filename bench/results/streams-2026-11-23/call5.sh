#!/usr/bin/env bash
# Device call 5: the shared kernel parts (branch `kernels` merged onto main, carried in
# .trial/) against main as it stands (this tree): output hashes bit for bit, the whole suite
# on the merged build, compute-sanitizer over the stream/graph cases (the graph replayed
# after a larger call included), throughput side by side, and ecgemm.jax's tests.
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/w5; mkdir -p $W
trap 'tar czf $OUT/call5.tgz -C $W .' EXIT
pip_build() { python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real "$@"; }
(pip_build -C build-dir=/tmp/btrial .trial > $W/build_trial.txt 2>&1; echo "merged build exit $?") &
(pip_build -C build-dir=/tmp/bbase --target /tmp/basesite . > $W/build_base.txt 2>&1; echo "main build exit $?") &
wait
cd .trial
OUT=$W timeout 90 python3 tools/device.py hash --log hash_merged.txt 2>&1 | tail -1
OUT=$W ECGEMM_LIBRARY=/tmp/basesite/ecgemm/lib/libecgemm.so timeout 90 python3 tools/device.py hash \
  --log hash_main.txt 2>&1 | tail -1
diff <(tail -n +2 $W/hash_main.txt) <(tail -n +2 $W/hash_merged.txt) > $W/hash_diff.txt && echo "hash: identical" || { echo "hash: differ"; head -5 $W/hash_diff.txt; }
timeout 240 python3 -m pytest -n 4 -q -p no:cacheprovider -rfEs tests -k "not short_of_memory" \
  > $W/suite.txt 2>&1; echo "suite exit $?"; grep -E "^FAILED|passed|failed" $W/suite.txt | tail -8
SEL="four_streams and (halfhalf-NT-64x65536x64 or auto-NT-1024x1024x1024 or tf32tf32-NN-64x8192x4096 or fp32-TN-64x8192x64) or capture_on_a_handle"
for tool in memcheck racecheck; do
  # memcheck also over the graph replayed after an 8192^3 call (too long for racecheck)
  sel="$SEL"; [ $tool = memcheck ] && sel="$SEL or graph_replayed and tf32tf32"
  timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 python3 -m pytest -q -p no:cacheprovider \
    tests/test_streams_gpu.py -k "$sel" > $W/sanitizer_$tool.txt 2>&1
  echo "$tool exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|passed|failed' $W/sanitizer_$tool.txt | tr '\n' ' ')"
done
for run in merged main; do
  case $run in main) export PYTHONPATH=/tmp/basesite ;; *) unset PYTHONPATH ;; esac
  timeout 60 python3 -m bench --shapes 8192x8192x8192,4096x4096x4096,1024x1024x1024,256x256x256,64x8192x8192,128x16384x128 \
    --sections throughput --no-xla --no-plots --methods ecgemm_tf32tf32,ecgemm_halfhalf --out $W/shapes_$run > $W/shapes_$run.log 2>&1
  echo "shapes $run exit $?"
done
unset PYTHONPATH
timeout 60 python3 -m pytest -q -p no:cacheprovider -rfEs tests/test_jax.py tests/test_jax_gpu.py 2>&1 | tail -3
