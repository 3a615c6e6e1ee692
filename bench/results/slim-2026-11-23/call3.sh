#!/usr/bin/env bash
# Device call 3: the simt dot tile (batches of products with at most 32 outputs: a warp per
# product). Registers, its tests with the slim, stream, batched and planner tests, memcheck,
# the held-out sweep (seed 26) with its 200 batches against torch.bmm.
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/s3; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call3.tgz -C $W .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"
so=$(python3 -c "import ecgemm, os; print(os.path.join(os.path.dirname(ecgemm.__file__), 'lib', 'libecgemm.so'))")
cuobjdump --dump-resource-usage $so 2>&1 | grep -A1 "simt_dot_kernel" | grep -o "simt_dot_kernelILi[0-9]*ELi[0-9]*E\|REG:[0-9]*\|STACK:[0-9]*\|LOCAL:[0-9]*" \
  | paste - - - - > $W/registers.txt; cat $W/registers.txt | tr '\n' ' '; echo
timeout 240 python3 -m pytest -q -p no:cacheprovider -rfEs -n 6 tests/test_simt_dot_gpu.py tests/test_simt_slim_gpu.py \
  tests/test_simt_stream_gpu.py tests/test_c_batched_gpu.py tests/test_planner_gpu.py tests/test_planner.py 2>&1 | tee $W/tests.txt | tail -3
(cd tests && timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 python3 -m pytest -q -p no:cacheprovider \
  test_simt_dot_gpu.py -k "(products and (33 or 1000) and N-T) or counts" 2>&1 | tail -3) | tee $W/memcheck.txt
timeout 220 python3 -m bench.random --seed 26 --out $W/random-seed26 --max-minutes 3 > $W/random.log 2>&1
echo "random exit $?"; grep -A5 "^| mode" $W/random-seed26/table.md | head -6; grep -B1 -A5 "torch.bmm\|batch" $W/random-seed26/table.md | grep "^| " | head -12
