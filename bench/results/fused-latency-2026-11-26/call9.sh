#!/usr/bin/env bash
# Device call 9 (README.md here): the held-out sample (seed 26) on an H100 for main before this session (bdb7670,
# carried as .baseline) and the tree as landed (46bde3d's library), one machine.
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/f9; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call9.tgz -C $W --exclude="*.png" .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index --target /tmp/base-site \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bbase .baseline > $W/build-base.txt 2>&1 &
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"; wait; echo "baseline build done"
PYTHONPATH=/tmp/base-site timeout 150 python3 -m bench.random --seed 26 --out $W/base-random --max-minutes 1.4 \
  --no-plots > $W/base-random.log 2>&1
echo "baseline random exit $?"; grep -E "^\| (tf32tf32|halfhalf|auto) \| (1018|200) " $W/base-random/table.md
timeout 150 python3 -m bench.random --seed 26 --out $W/random --max-minutes 1.4 > $W/random.log 2>&1
echo "random exit $?"; grep -E "^\| (tf32tf32|halfhalf|auto) \| (1018|200) " $W/random/table.md
