#!/usr/bin/env bash
# Device call 4 (README.md here): the held-out sample (seed 26) on one machine for the tree before
# this work (commit 3e90624, carried as .baseline) and for this tree (fused_mma's two tiles, the
# serial reducer's blocks, the cluster reduction's overlapped loads); the streams tests.
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/l4; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call4.tgz -C $W .' EXIT
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
timeout 120 python3 -m pytest -q -p no:cacheprovider -rfEs -n 8 tests/test_streams_gpu.py > $W/streams.txt 2>&1
echo "streams exit $?"; tail -2 $W/streams.txt
