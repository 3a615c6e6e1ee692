#!/usr/bin/env bash
# Device call 5 (README.md here): store_shifted from the tile staged whole in shared memory after the products (every
# k; the shuffles and kShiftedMaxK gone) against c64980c (.baseline, carried, built beside it): store_ab.py with the
# stream tile pinned (base, new, new, base), then the GPU tests that run the stream tile (its own, the strip tile's,
# the planner's, the C ABI's, batches, streams).
set -o pipefail
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
D=bench/results/shortk-2026-11-27
T0=$(date +%s)
tar xzf .device/baseline.tgz  # .baseline, carried as one file
PIP="python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real"
$PIP -C build-dir=/tmp/b5-base --target /tmp/site-base .baseline > $OUT/build-base.txt 2>&1 &
$PIP -C build-dir=/tmp/b5-new . > $OUT/build-new.txt 2>&1; echo "build new exit $? $(( $(date +%s) - T0 )) s"
wait $!; echo "build base exit $? $(( $(date +%s) - T0 )) s"
for run in base1 new1 new2 base2; do
  P=$PWD; [[ $run == base* ]] && P=/tmp/site-base:$PWD
  PYTHONPATH=$P timeout 60 python3 $D/store_ab.py $OUT/staged-$run.jsonl > /dev/null 2> $OUT/staged-$run.log
  echo "store_ab $run exit $? $(( $(date +%s) - T0 )) s"
done
python3 $D/summarize_store.py $OUT/staged-{base1,new1,new2,base2}.jsonl > $OUT/staged.md; tail -4 $OUT/staged.md
timeout 150 python3 -m pytest -q -p no:cacheprovider -rfE -n 8 tests/test_simt_stream_gpu.py tests/test_simt_strips_gpu.py \
  tests/test_planner_gpu.py tests/test_c_abi_gpu.py tests/test_c_batched_gpu.py tests/test_streams_gpu.py > $OUT/pytest.txt 2>&1
echo "pytest exit $? $(( $(date +%s) - T0 )) s"; grep -E "^FAILED|^ERROR| passed| failed" $OUT/pytest.txt | cut -c1-250 | head -20
(cd $OUT && tar czf store.tgz --remove-files staged-*.jsonl staged-*.log build-*.txt)
echo "done $(( $(date +%s) - T0 )) s"
