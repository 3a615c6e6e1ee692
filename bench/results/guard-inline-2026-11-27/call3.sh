#!/usr/bin/env bash
# Device call 3 (README.md here): compute-sanitizer racecheck and synccheck over AUTO's fused_wgmma kernels (the vote's
# barrier, the shared flag word a ring slot); the accuracy suite and bench.stress on the final tree.
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/g3; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call3.tgz -C $W --exclude="*.png" .' EXIT
T0=$(date +%s)
python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real \
  -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $? $(( $(date +%s) - T0 )) s"; tail -1 $W/build.txt
SEL="(only_the_tiles and False) or (wide_everywhere and 70-64-66) or (class_mapped and 130 and N-N)"
for tool in racecheck synccheck; do
  timeout 170 python3 tools/device.py sanitizer --tools $tool --timeout 160 --log $tool.txt -- \
    tests/test_auto_fused_wgmma_gpu.py -k "$SEL" 2>&1 | tail -2
  cp $OUT/$tool.txt $W/ 2>/dev/null; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|passed|failed" $W/$tool.txt | sort | uniq -c
  echo "$tool done $(( $(date +%s) - T0 )) s"
done
timeout 100 python3 -m bench --sections accuracy --no-xla --max-minutes 1.5 --no-plots --out $W/accuracy > $W/accuracy.md 2> $W/accuracy.log &
timeout 40 python3 -m bench.stress --seconds 10 --out $W/stress > $W/stress.txt 2>&1
echo "stress exit $? $(( $(date +%s) - T0 )) s"; grep -E "^\| (none|32 MiB)" $W/stress/table.md
wait; echo "accuracy done $(( $(date +%s) - T0 )) s"; grep -A6 "^## Flags" $W/accuracy.md | head -8
gzip -f $W/accuracy.log
