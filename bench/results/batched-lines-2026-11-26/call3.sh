#!/usr/bin/env bash
# Device call 3 (README.md here): the tree to commit: call 1's kernel (call 2's one round a lane not kept), gemv/lines
# fitted on call 1's calibration, the planner pricing a warp a line beside the lines kernel, "gemv:lines" pinning it.
# The whole GPU suite; memcheck over the lines kernel's batches; ab_batched.py (the planner's route, gemv:wide); the
# held-out sample (seed 26); the accuracy suite; bench.stress.
set -o pipefail
export PYTHONUNBUFFERED=1
R=$PWD; D=$R/bench/results/batched-lines-2026-11-26
W=/tmp/l3; rm -rf $W; mkdir -p $W
trap 'gzip -f $W/random/results.json; tar czf $OUT/call3.tgz -C $W .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"
timeout 200 python3 -m pytest -q -p no:cacheprovider -rfEs -n 8 tests -k "not short_of_memory" > $W/suite.txt 2>&1
echo "suite exit $?"; tail -n 1 $W/suite.txt; grep -E "^FAILED|^ERROR" $W/suite.txt | head -12
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 9 python3 -m pytest -q -p no:cacheprovider \
  tests/test_gemv_gpu.py -k "short_lines_batches and strided" > $W/memcheck.txt 2>&1
echo "memcheck exit $?"; grep -E "ERROR SUMMARY|passed|failed" $W/memcheck.txt | tail -n 2
(cd /tmp && timeout 60 python3 $D/ab_batched.py $D/shapes_batched.txt $W/ab_batched.json - gemv:wide > $W/ab_batched.txt 2> $W/ab_batched.err)
echo "ab_batched exit $?"; tail -n 2 $W/ab_batched.err
timeout 100 python3 -m bench.random --seed 26 --max-minutes 1.4 --out $W/random > $W/random.md 2> $W/random.log
echo "random exit $?"; grep -E "^\| (tf32tf32|halfhalf|auto) \| [0-9]" $W/random/table.md | head -6
timeout 80 python3 -m bench --sections accuracy --no-xla --max-minutes 1.2 --no-plots --out $W/accuracy > $W/accuracy.md 2> $W/accuracy.log
echo "accuracy exit $?"; grep -A3 "^## Flags" $W/accuracy.md | head -4
timeout 30 python3 -m bench.stress --seconds 3 --out $W/stress > $W/stress.log 2>&1
echo "stress exit $?"; grep -E "^\| (none|32 MiB)" $W/stress/table.md | head -2
