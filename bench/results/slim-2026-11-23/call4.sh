#!/usr/bin/env bash
# Device call 4: the simt line tile (batches with m or n 1: a warp per product, a lane per
# output), its tests and memcheck, the held-out sweep (seed 26) again, then the whole GPU
# suite on the session's final tree (JAX command buffers, AUTO's wide rows, slim/dot/line tiles).
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/s4; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call4.tgz -C $W .' EXIT
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $W/gpu.txt
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"
so=$(python3 -c "import ecgemm, os; print(os.path.join(os.path.dirname(ecgemm.__file__), 'lib', 'libecgemm.so'))")
cuobjdump --dump-resource-usage $so 2>&1 | grep -A1 "simt_line_kernel" | grep -o "REG:[0-9]*\|STACK:[0-9]*\|LOCAL:[0-9]*" | paste - - - > $W/registers.txt; cat $W/registers.txt
(cd tests && timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 python3 -m pytest -q -p no:cacheprovider \
  test_simt_dot_gpu.py -k "lines and (11 or 700)" 2>&1 | tail -3) | tee $W/memcheck.txt
timeout 220 python3 -m bench.random --seed 26 --out $W/random-seed26 --max-minutes 3 > $W/random.log 2>&1
echo "random exit $?"; grep -A5 "^| mode" $W/random-seed26/table.md | sed -n 1,12p | grep "^| tf32\|^| half\|^| auto"
timeout 480 python3 -m pytest -q -p no:cacheprovider -rfEs -n 8 tests 2>&1 | tee $W/suite.txt | tail -8
