#!/usr/bin/env bash
# Device call 7 (README.md here): the tree to be committed (call 6's kernel, launched where a column of C can start off
# a 16-byte boundary and k <= 4, kShiftedMaxK), against main (09acba0, carried as .baseline): the stream, strip and
# batched GPU tests; stream_ab.py on both trees, alternating.
set -o pipefail
export PYTHONUNBUFFERED=1
D=$PWD/bench/results/wide-side-2026-11-26
W=/tmp/w7; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call7.tgz -C $W .' EXIT
T0=$(date +%s)
BUILD="python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real"
$BUILD --target /tmp/base-site -C build-dir=/tmp/bbase .baseline > $W/build-base.txt 2>&1 &
$BUILD -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"; wait; echo "builds done $(( $(date +%s) - T0 )) s"
timeout 150 python3 -m pytest -q -p no:cacheprovider -rfEs -n 8 tests/test_simt_stream_gpu.py tests/test_simt_strips_gpu.py \
  tests/test_c_batched_gpu.py > $W/tests.txt 2>&1
echo "tests exit $? $(( $(date +%s) - T0 )) s"; tail -n 1 $W/tests.txt; grep -E "^FAILED|^ERROR" $W/tests.txt | head -8
for tree in base new; do
  PP=; [ $tree = base ] && PP=/tmp/base-site
  (cd /tmp && PYTHONPATH=$PP timeout 60 python3 $D/stream_ab.py $W/stream-$tree.jsonl > $W/stream-$tree.txt 2>&1)
  echo "stream $tree exit $? $(( $(date +%s) - T0 )) s"
done
paste -d'|' $W/stream-base.txt $W/stream-new.txt | sed 's/|/ || /g' | cut -c1-300
