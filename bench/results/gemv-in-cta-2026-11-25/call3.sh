#!/usr/bin/env bash
# Device call 3 (README.md here): the tree to commit: call 2's rules; row groups narrower than 32 lanes priced by a
# row of their own (gemv/along_len_cta, fitted on call 1's calibration points this tree plans alike). The whole GPU
# suite; ab.py over shapes.txt as before; the held-out sample (seed 26); the accuracy suite; bench.stress.
set -o pipefail
export PYTHONUNBUFFERED=1
D=$PWD/bench/results/gemv-in-cta-2026-11-25
AB=$PWD/bench/results/gemv-2026-11-25/ab.py
W=/tmp/c3; rm -rf $W; mkdir -p $W
trap 'gzip -f $W/random/results.json; tar czf $OUT/call3.tgz -C $W .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"
timeout 240 python3 -m pytest -q -p no:cacheprovider -rfEs -n 8 tests -k "not short_of_memory" > $W/suite.txt 2>&1
echo "suite exit $?"; tail -n 1 $W/suite.txt; grep -E "^FAILED|^ERROR" $W/suite.txt | head -12
(cd /tmp && timeout 90 python3 $AB $D/shapes.txt $W/ab.json - gemv gemv:wide fused_mma:32 > $W/ab.txt 2> $W/ab.err)
echo "ab exit $?"; tail -n 3 $W/ab.err
timeout 100 python3 -m bench.random --seed 26 --max-minutes 1.5 --out $W/random > $W/random.md 2> $W/random.log
echo "random exit $?"; grep -E "^\| (tf32tf32|halfhalf|auto) \| [0-9]" $W/random/table.md | head -6
timeout 70 python3 -m bench --sections accuracy --no-xla --max-minutes 1 --no-plots --out $W/accuracy > $W/accuracy.md 2> $W/accuracy.log
echo "accuracy exit $?"; grep -A3 "^## Flags" $W/accuracy.md | head -4
timeout 30 python3 -m bench.stress --seconds 2 --out $W/stress > $W/stress.log 2>&1
echo "stress exit $?"; grep -E "^\| (none|32 MiB)" $W/stress/table.md
