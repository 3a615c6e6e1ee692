#!/usr/bin/env bash
# Device call 3 (README.md): every GPU test on the landed tree, then bench.stress (16 threads x 4 streams, graphs)
# 10 s a configuration: the walk kernel now serves plane-route plans of many waves under any stream or graph.
set -o pipefail
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
T0=$(date +%s)
python3 -c "import ecgemm" 2>/dev/null && [ -d /tmp/b2 ] || python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/b2 . > $OUT/build.txt 2>&1
echo "build $(( $(date +%s) - T0 )) s"
timeout 400 python3 -m pytest -q -p no:cacheprovider -rfE -n 12 tests > $OUT/tests.txt 2>&1
echo "tests exit $? $(( $(date +%s) - T0 )) s"; tail -n 1 $OUT/tests.txt; grep -E "^FAILED|^ERROR" $OUT/tests.txt | cut -c1-220 | head
timeout 60 python3 -m bench.stress --seconds 10 --out $OUT/stress > $OUT/stress.txt 2>&1
echo "stress exit $? $(( $(date +%s) - T0 )) s"; tail -n 8 $OUT/stress.txt
