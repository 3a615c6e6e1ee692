#!/usr/bin/env bash
# Device call 4 (README.md here): the tile raster in 32-bit arithmetic (every family) and the
# epilogue without per-element alpha/beta tests where C is not read (fused_mma, simt). Build;
# the whole GPU suite; fused_mma and simt pinned on the calibration sample (seed 25, against
# refit-2026-11-23/calibration); the held-out sample (seed 26, against refit-2026-11-23/call5);
# big squares (against planner-2026-11-23/squares).
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/s4; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call4.tgz -C $W .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"
timeout 220 python3 -m pytest -q -p no:cacheprovider -rfEs -n 8 tests -k "not short_of_memory" > $W/suite.txt 2>&1
echo "suite exit $?"; tail -3 $W/suite.txt
timeout 100 python3 -m bench.random --seed 25 --modes tf32tf32 --families fused_mma,simt \
  --out $W/pinned-seed25 --max-minutes 1.5 --no-plots > $W/pinned.log 2>&1; echo "pinned exit $?"
timeout 120 python3 -m bench.random --seed 26 --out $W/random-seed26 --max-minutes 1.8 > $W/random.log 2>&1
echo "random exit $?"; grep "^| tf32tf32 | 1018\|^| halfhalf | 1018\|^| auto | 1018\|^| tf32tf32 | 200\|^| halfhalf | 200\|^| auto | 200" $W/random-seed26/table.md
timeout 60 python3 -m bench --shapes 4096x4096x4096,8192x8192x8192 --sections throughput \
  --no-xla --no-plots --methods ecgemm_tf32tf32,ecgemm_halfhalf,ecgemm_auto --out $W/squares > $W/squares.log 2>&1
echo "squares exit $?"; grep -E "^\| (cuBLAS|ecgemm)" $W/squares/table.md | cut -d'|' -f2-6
