#!/usr/bin/env bash
# Device call 5 (README.md here): the final tree (the new cost rows, the handle holding DeviceInfo): the accuracy
# suite and bench.stress (16 threads x 4 streams, every result against the call made alone) side by side.
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/n5; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call5.tgz -C $W --exclude="*.png" .' EXIT
T0=$(date +%s)
python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real \
  -C build-dir=/tmp/b . > $W/build.txt 2>&1
echo "build exit $? $(( $(date +%s) - T0 )) s"; tail -2 $W/build.txt > $W/b.t && mv $W/b.t $W/build.txt
timeout 100 python3 -m bench --sections accuracy --no-xla --max-minutes 1.5 --no-plots --out $W/accuracy > $W/accuracy.md 2> $W/accuracy.log &
timeout 40 python3 -m bench.stress --seconds 10 --out $W/stress > $W/stress.txt 2>&1
echo "stress exit $? $(( $(date +%s) - T0 )) s"; grep -E "^\| (none|32 MiB)" $W/stress/table.md
wait; echo "accuracy done $(( $(date +%s) - T0 )) s"; grep -A6 "^## Flags" $W/accuracy.md | head -8
gzip -f $W/accuracy.log
