#!/usr/bin/env bash
# Device call 2: the refitted cost model (simt priced per tile class: square/tall, slim,
# stream, dot; cost_coefficients.inc from call 1's calibration) on the held-out sample
# (seed 26); the host cost per call; bench.wide (issue 26's wide-range data over k).
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/w2; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call2.tgz -C $W .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"
timeout 220 python3 -m bench.random --seed 26 --out $W/random-seed26 --max-minutes 3 > $W/random.log 2>&1
echo "random exit $?"; grep "^| tf32tf32 | 1018\|^| halfhalf | 1018\|^| auto | 1018\|^| tf32tf32 | 200\|^| halfhalf | 200\|^| auto | 200" $W/random-seed26/table.md
timeout 80 python3 -m bench.overhead --out $W/overhead > $W/overhead.log 2>&1
echo "overhead exit $?"; grep -E "a @ b|fast path|ecgemm_sgemm|scratch" $W/overhead/table.md | head -8
timeout 200 python3 -m bench.wide --out $W/wide > $W/wide.log 2>&1; echo "wide exit $?"; tail -3 $W/wide.log
