#!/usr/bin/env bash
# Device call 6 (README.md here): the committed tree (46bde3d's library) whole: GPU suite, memcheck over fused_mma's
# 4-byte copies (every layout, both tiles, ragged edges, batches with odd leading dimensions), the accuracy suite,
# bench.stress; then a calibration sample for fused_mma's cost rows (seed 25, both tiles pinned, as
# latency-2026-11-25 call 2), the copies having changed its speed where an operand is not 16-byte aligned.
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/f6; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call6.tgz -C $W .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"
timeout 220 python3 -m pytest -q -p no:cacheprovider -rfEs -n 8 tests -k "not short_of_memory" > $W/suite.txt 2>&1
echo "suite exit $?"; tail -n 1 $W/suite.txt; grep -E "^FAILED|^ERROR" $W/suite.txt | head -12
timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 python3 bench/results/fused-latency-2026-11-26/copies_check.py \
  > $W/memcheck.txt 2>&1
echo "memcheck exit $?"; grep -E "ERROR SUMMARY|misses" $W/memcheck.txt | tail -n 2
timeout 80 python3 -m bench --sections accuracy --no-xla --max-minutes 1.2 --no-plots --out $W/accuracy > $W/accuracy.md 2> $W/accuracy.log
echo "accuracy exit $?"; grep -A3 "^## Flags" $W/accuracy.md | head -4
timeout 30 python3 -m bench.stress --seconds 3 --out $W/stress > $W/stress.log 2>&1
echo "stress exit $?"; grep -E "^\| (none|32 MiB)" $W/stress/table.md | head -2
timeout 260 python3 -m bench.random --seed 25 --count 400 --batched-count 300 --modes tf32tf32,halfhalf \
  --families fused_mma:64,fused_mma:32 --out $W/calibration --max-minutes 3.8 --no-plots > $W/calibration.log 2>&1
echo "calibration exit $?"; tail -3 $W/calibration.log; gzip -f $W/calibration/results.json
