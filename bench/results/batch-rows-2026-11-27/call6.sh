#!/usr/bin/env bash
# Device call 6 (README.md here): the final tree (call 4's library; the torch test now allows the call's own split-K
# scratch): the torch, streams and GEMV GPU tests, then the accuracy suite and bench.stress side by side.
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/r6; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call6.tgz -C $W .' EXIT
T0=$(date +%s)
python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real \
  -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $? $(( $(date +%s) - T0 )) s"; tail -2 $W/build.txt > $W/b.t && mv $W/b.t $W/build.txt
timeout 150 python3 -m pytest -q -p no:cacheprovider -rfE -n 8 tests/test_torch_gpu.py tests/test_streams_gpu.py \
  tests/test_gemv_gpu.py > $W/tests.txt 2>&1
echo "tests exit $? $(( $(date +%s) - T0 )) s"; tail -n 1 $W/tests.txt; grep -E "^FAILED|^ERROR" $W/tests.txt | head -8
timeout 100 python3 -m bench --sections accuracy --no-xla --max-minutes 1.5 --no-plots --out $W/accuracy > $W/accuracy.md 2> $W/accuracy.log &
timeout 40 python3 -m bench.stress --seconds 10 --out $W/stress > $W/stress.txt 2>&1
echo "stress exit $? $(( $(date +%s) - T0 )) s"; grep -E "^\| (none|32 MiB)" $W/stress/table.md
wait; echo "accuracy done $(( $(date +%s) - T0 )) s"; grep -A6 "^## Flags" $W/accuracy.md | head -8
gzip -f $W/accuracy.log
