#!/usr/bin/env bash
# Device call 8 (README.md here): fused_mma storing zeros past the operand instead of zero-byte cp.async copies,
# against main (3da3ef1, carried as .baseline): outputs bit for bit,
# the fused_mma and streams GPU tests, the held-out sample (seed 26) for both trees on this machine.
set -o pipefail
export PYTHONUNBUFFERED=1
D=$PWD/bench/results/fused-latency-2026-11-26
W=/tmp/f8; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call8.tgz -C $W --exclude=base.pt --exclude="*.png" .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index --target /tmp/base-site \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bbase .baseline > $W/build-base.txt 2>&1 &
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"; wait; echo "baseline build done"; grep -i "spill" $W/build.txt | head -5
cd /tmp
PYTHONPATH=/tmp/base-site python3 $D/bits.py save $W/base.pt > $W/bits-base.txt 2>&1; echo "bits base exit $?"
python3 $D/bits.py check $W/base.pt > $W/bits.txt 2>&1; echo "bits exit $?"; tail -1 $W/bits.txt
cd - > /dev/null
timeout 200 python3 -m pytest -q -p no:cacheprovider -rfEs -n 8 tests/test_fused_mma_gpu.py tests/test_streams_gpu.py \
  tests/test_auto_fused_gpu.py tests/test_auto_scaled_gpu.py tests/test_fused_mma_fp32_gpu.py tests/test_c_batched_gpu.py > $W/tests.txt 2>&1
echo "tests exit $?"; tail -n 1 $W/tests.txt; grep -E "^FAILED|^ERROR" $W/tests.txt | head -8
PYTHONPATH=/tmp/base-site timeout 150 python3 -m bench.random --seed 26 --out $W/base-random --max-minutes 1.4 \
  --no-plots > $W/base-random.log 2>&1
echo "baseline random exit $?"; grep -E "^\| (tf32tf32|halfhalf|auto) \| (1018|200) " $W/base-random/table.md
timeout 150 python3 -m bench.random --seed 26 --out $W/random --max-minutes 1.4 > $W/random.log 2>&1
echo "random exit $?"; grep -E "^\| (tf32tf32|halfhalf|auto) \| (1018|200) " $W/random/table.md
