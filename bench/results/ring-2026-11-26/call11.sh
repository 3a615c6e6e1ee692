#!/usr/bin/env bash
# Device call 11 (README.md here): main with the thin tile (dd9a2e1) under compute-sanitizer: memcheck over the thin
# tile's GPU tests; racecheck and synccheck over a few of them (its shared-memory ring).
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/r11; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call11.tgz -C $W .' EXIT
T0=$(date +%s)
python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real \
  -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $? $(( $(date +%s) - T0 )) s"
timeout 200 compute-sanitizer --tool memcheck --error-exitcode 3 --print-limit 20 python3 -m pytest -q -rf \
  -p no:cacheprovider -n 4 tests/test_simt_thin_gpu.py > $W/memcheck.txt 2>&1
echo "memcheck exit $? $(( $(date +%s) - T0 )) s"; tail -n 1 $W/memcheck.txt; grep "ERROR SUMMARY" $W/memcheck.txt | sort | uniq -c
for tool in racecheck synccheck; do
  timeout 100 compute-sanitizer --tool $tool --error-exitcode 3 --print-limit 20 python3 -m pytest -q -rf \
    -p no:cacheprovider tests/test_simt_thin_gpu.py -k "test_products and (1000-1 or 2049-8 or 6-530) and N-T and 1001" \
    > $W/$tool.txt 2>&1
  echo "$tool exit $? $(( $(date +%s) - T0 )) s"; tail -n 1 $W/$tool.txt; grep -E "ERROR SUMMARY|hazard" $W/$tool.txt | sort | uniq -c | head
done
gzip -f $W/*.txt
