#!/usr/bin/env bash
# Device call 10 (README.md here): fused_mma's kernel launched as a programmatic dependent of the stream's previous
# kernel (its wait before any global access), against the tree as landed (4e9ac0c, carried as .baseline): fused_mma,
# streams and batched GPU tests, bench.stress, the held-out sample (seed 26) for both trees.
set -o pipefail
export PYTHONUNBUFFERED=1
D=$PWD/bench/results/cluster-2026-11-26
W=/tmp/c10; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call10.tgz -C $W --exclude="*.png" .' EXIT
BUILD="python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real"
$BUILD --target /tmp/base-site -C build-dir=/tmp/bbase .baseline > $W/build-base.txt 2>&1 &
$BUILD -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"; wait; echo "baseline build done"
timeout 120 python3 -m pytest -q -p no:cacheprovider -rfEs -n 8 tests/test_fused_mma_gpu.py tests/test_streams_gpu.py \
  tests/test_c_batched_gpu.py tests/test_fused_mma_fp32_gpu.py tests/test_auto_fused_gpu.py > $W/tests.txt 2>&1
echo "tests exit $?"; tail -n 1 $W/tests.txt; grep -E "^FAILED|^ERROR" $W/tests.txt | head -8
timeout 30 python3 -m bench.stress --seconds 3 --out $W/stress > $W/stress.log 2>&1
echo "stress exit $?"; grep -E "^\| (none|32 MiB)" $W/stress/table.md | head -2
PYTHONPATH=/tmp/base-site timeout 100 python3 -m bench.random --seed 26 --out $W/base-random --max-minutes 1.4 \
  --no-plots > $W/base-random.log 2>&1
echo "baseline random exit $?"; grep -E "^\| (tf32tf32|halfhalf|auto) \| (1018|200) " $W/base-random/table.md
timeout 100 python3 -m bench.random --seed 26 --out $W/random --max-minutes 1.4 --no-plots > $W/random.log 2>&1
echo "random exit $?"; grep -E "^\| (tf32tf32|halfhalf|auto) \| (1018|200) " $W/random/table.md
python3 $D/compare.py $W/random/results.json $W/base-random/results.json > $W/compare.txt; grep -E "^(gemm|batched)|routes changed" $W/compare.txt
gzip -f $W/random/results.json $W/base-random/results.json $W/random.log $W/base-random.log
