#!/usr/bin/env bash
# Device call 12 (README.md here): call 11 with every lane of the unaligned kernels in the unrolled loop (loads past the end predicated off, no divergent last block); GEMV along the long side, where the large operand is not 16-byte aligned, its
# four outputs a lane x + row_lanes q (each 4-byte load a group's contiguous run, eight rows in flight), against
# main (9ce29d7, carried as .baseline): outputs bit for bit (GEMVs: planner's route and gemv:wide; the fused_mma
# set), the GEMV and planner GPU tests, the held-out sample (seed 26) for both trees on this machine.
set -o pipefail
export PYTHONUNBUFFERED=1
D=$PWD/bench/results/fused-latency-2026-11-26
W=/tmp/f12; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call12.tgz -C $W --exclude="*.pt" --exclude="*.png" .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index --target /tmp/base-site \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bbase .baseline > $W/build-base.txt 2>&1 &
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"; wait; echo "baseline build done"
cd /tmp
PYTHONPATH=/tmp/base-site python3 $D/bits.py save $W/base-gemv.pt gemv > $W/bits-base-gemv.txt 2>&1; echo "bits base gemv exit $?"
python3 $D/bits.py check $W/base-gemv.pt gemv > $W/bits-gemv.txt 2>&1; echo "bits gemv exit $?"; tail -1 $W/bits-gemv.txt
PYTHONPATH=/tmp/base-site python3 $D/bits.py save $W/base.pt > $W/bits-base.txt 2>&1; echo "bits base exit $?"
python3 $D/bits.py check $W/base.pt > $W/bits.txt 2>&1; echo "bits exit $?"; tail -1 $W/bits.txt
cd - > /dev/null
timeout 200 python3 -m pytest -q -p no:cacheprovider -rfEs -n 8 tests/test_gemv_gpu.py tests/test_planner_gpu.py \
  tests/test_streams_gpu.py > $W/tests.txt 2>&1
echo "tests exit $?"; tail -n 1 $W/tests.txt; grep -E "^FAILED|^ERROR" $W/tests.txt | head -8
PYTHONPATH=/tmp/base-site timeout 150 python3 -m bench.random --seed 26 --out $W/base-random --max-minutes 1.4 \
  --no-plots > $W/base-random.log 2>&1
echo "baseline random exit $?"; grep -E "^\| (tf32tf32|halfhalf|auto) \| (1018|200) " $W/base-random/table.md
timeout 150 python3 -m bench.random --seed 26 --out $W/random --max-minutes 1.4 --no-plots > $W/random.log 2>&1
echo "random exit $?"; grep -E "^\| (tf32tf32|halfhalf|auto) \| (1018|200) " $W/random/table.md
