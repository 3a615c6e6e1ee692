#!/usr/bin/env bash
# Device call 5 (README.md here): the held-out sample (seed 26) on one machine for the tree before
# this work (commit 3e90624, carried as .baseline) and for this tree, where the 32-wide fused_mma
# tile is offered only where it can win (fused_mma_alternative); the whole GPU suite;
# compute-sanitizer memcheck over the 32-wide tile's kernels.
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/l5; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call5.tgz -C $W .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index --target /tmp/base-site \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bbase .baseline > $W/build-base.txt 2>&1
echo "baseline build exit $?"
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"
PYTHONPATH=/tmp/base-site timeout 150 python3 -m bench.random --seed 26 --out $W/base-seed26 --max-minutes 2.2 \
  --no-plots > $W/base.log 2>&1
echo "baseline random exit $?"; grep "^| tf32tf32 | 1018\|^| halfhalf | 1018\|^| auto | 1018\|^| tf32tf32 | 200\|^| halfhalf | 200\|^| auto | 200" $W/base-seed26/table.md
timeout 150 python3 -m bench.random --seed 26 --out $W/random-seed26 --max-minutes 2.2 --no-plots > $W/random.log 2>&1
echo "random exit $?"; grep "^| tf32tf32 | 1018\|^| halfhalf | 1018\|^| auto | 1018\|^| tf32tf32 | 200\|^| halfhalf | 200\|^| auto | 200" $W/random-seed26/table.md
timeout 240 python3 -m pytest -q -p no:cacheprovider -rfEs -n 8 tests -k "not short_of_memory" > $W/suite.txt 2>&1
echo "suite exit $?"; tail -2 $W/suite.txt; grep -E "^FAILED|^ERROR" $W/suite.txt | head -10
timeout 150 compute-sanitizer --tool memcheck --kernel-name regex:fused_mma_kernel \
  python3 -m pytest -q -p no:cacheprovider tests/test_fused_mma_gpu.py -k "tile32 and (batches or nan_inf or 130-257-300 or 1-700-513)" \
  > $W/memcheck.txt 2>&1
echo "memcheck exit $?"; grep -E "ERROR SUMMARY|passed|failed" $W/memcheck.txt | tail -3
