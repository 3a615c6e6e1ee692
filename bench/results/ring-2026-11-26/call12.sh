#!/usr/bin/env bash
# Device call 12 (README.md here): main as landed (f8a8875, the thin tile and its cost row) checked whole: the
# accuracy suite; the streams and graph tests (one handle on many streams, graph capture and replay); bench.stress.
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/r12; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call12.tgz -C $W --exclude="*.png" .' EXIT
T0=$(date +%s)
python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real \
  -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $? $(( $(date +%s) - T0 )) s"
timeout 100 python3 -m bench --sections accuracy --no-xla --max-minutes 1.2 --no-plots --out $W/accuracy \
  > $W/accuracy.md 2> $W/accuracy.log
echo "accuracy exit $? $(( $(date +%s) - T0 )) s"; grep -A3 "^## Flags" $W/accuracy.md | head -4
timeout 120 python3 -m pytest -q -p no:cacheprovider -rfEs -n 4 tests/test_streams_gpu.py > $W/streams.txt 2>&1
echo "streams exit $? $(( $(date +%s) - T0 )) s"; tail -n 1 $W/streams.txt
timeout 60 python3 -m bench.stress --seconds 3 --out $W/stress > $W/stress.log 2>&1
echo "stress exit $? $(( $(date +%s) - T0 )) s"; grep -E "^\| (none|32 MiB)" $W/stress/table.md | head -2
