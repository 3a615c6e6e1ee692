#!/usr/bin/env bash
# Device call 2 (same machine, builds of call 1): compute-sanitizer over the stream and
# graph cases, the cuBLAS preload on several streams, host cost per call before/after,
# and the stress run (bench.stress), without and with a workspace limit.
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/w2; mkdir -p $W
trap 'tar czf $OUT/call2.tgz -C $W .' EXIT
SEL="four_streams and (halfhalf-NT-64x65536x64 or auto-NT-96x128x80 or tf32tf32-NN-1x8192x8192 or auto-NT-1024x1024x1024 or tf32tf32-NN-64x8192x4096 or halfhalf-TN-256x256x256-32) or capture_on_a_handle"
for tool in memcheck racecheck synccheck; do
  timeout 150 compute-sanitizer --tool $tool --error-exitcode 9 python3 -m pytest -q -p no:cacheprovider \
    tests/test_streams_gpu.py -k "$SEL" > $W/sanitizer_$tool.txt 2>&1
  echo "$tool exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|passed|failed' $W/sanitizer_$tool.txt | tr '\n' ' ')"
done
timeout 200 python3 -m pytest -q -p no:cacheprovider -rfEs tests/test_intercept_gpu.py 2>&1 | tee $W/intercept.txt | tail -8
timeout 90 python3 -m bench.overhead --out $W/overhead_new > $W/overhead_new.log 2>&1; echo "overhead new $?"
PYTHONPATH=/tmp/oldsite timeout 90 python3 -m bench.overhead --out $W/overhead_old > $W/overhead_old.log 2>&1; echo "overhead old $?"
grep -h "ecgemm_sgemm\|cublasSgemm" $W/overhead_new/table.md $W/overhead_old/table.md | head -12
timeout 150 python3 -m bench.stress --seconds 40 --out $W/stress 2>&1 | tail -30
