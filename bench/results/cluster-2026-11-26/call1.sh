#!/usr/bin/env bash
# Device call 1 (README.md here): fused_mma's cluster reduction, every split's value of a batch of outputs
# requested before the first add, shares over the outputs C has; against main (a3c7e06, carried as .baseline):
# outputs bit for bit, fused_mma / streams / batched GPU tests, the held-out sample (seed 26) for both trees.
set -o pipefail
export PYTHONUNBUFFERED=1
D=$PWD/bench/results/cluster-2026-11-26
F=$PWD/bench/results/fused-latency-2026-11-26
W=/tmp/c1; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call1.tgz -C $W --exclude=base.pt --exclude="*.png" .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index --target /tmp/base-site \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bbase .baseline > $W/build-base.txt 2>&1 &
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"; wait; echo "baseline build done"; grep -ci "spill" $W/build.txt
cd /tmp
PYTHONPATH=/tmp/base-site python3 $F/bits.py save $W/base.pt > $W/bits-base.txt 2>&1; echo "bits base exit $?"
python3 $F/bits.py check $W/base.pt > $W/bits.txt 2>&1; echo "bits exit $?"; tail -1 $W/bits.txt
cd - > /dev/null
timeout 200 python3 -m pytest -q -p no:cacheprovider -rfEs -n 8 tests/test_fused_mma_gpu.py tests/test_streams_gpu.py \
  tests/test_auto_fused_gpu.py tests/test_c_batched_gpu.py > $W/tests.txt 2>&1
echo "tests exit $?"; tail -n 1 $W/tests.txt; grep -E "^FAILED|^ERROR" $W/tests.txt | head -8
PYTHONPATH=/tmp/base-site timeout 120 python3 -m bench.random --seed 26 --out $W/base-random --max-minutes 1.4 \
  --no-plots > $W/base-random.log 2>&1
echo "baseline random exit $?"; grep -E "^\| (tf32tf32|halfhalf|auto) \| (1018|200) " $W/base-random/table.md
timeout 120 python3 -m bench.random --seed 26 --out $W/random --max-minutes 1.4 --no-plots > $W/random.log 2>&1
echo "random exit $?"; grep -E "^\| (tf32tf32|halfhalf|auto) \| (1018|200) " $W/random/table.md
python3 $D/compare.py $W/random/results.json $W/base-random/results.json | tee $W/compare.txt
gzip -f $W/random/results.json $W/base-random/results.json
