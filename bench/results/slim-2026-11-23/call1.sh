#!/usr/bin/env bash
# Device call 1: the simt family's slim tiles (128x32, 32x128, 256x16, 16x256: a thin side of
# at most 32 or 16 against a long one; issue 25's narrow class). Registers, the tests (slim,
# stream, planner), memcheck over the slim kernels, the narrow shapes against cuBLAS, and the
# held-out random sweep (seed 26) to compare with ../planner-2026-11-23/random-seed26-call4.
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/s1; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call1.tgz -C $W .' EXIT
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $W/gpu.txt
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"
so=$(python3 -c "import ecgemm, os; print(os.path.join(os.path.dirname(ecgemm.__file__), 'lib', 'libecgemm.so'))")
cuobjdump --dump-resource-usage $so 2>&1 | grep -A1 "simt_kernel" | grep -o "simt_kernelILi[0-9]*ELi[0-9]*ELi[0-9]*ELb[01]ELb[01]\|REG:[0-9]*\|STACK:[0-9]*\|LOCAL:[0-9]*" \
  | paste - - - - > $W/registers.txt; cat $W/registers.txt
timeout 200 python3 -m pytest -q -p no:cacheprovider -rfEs -n 6 tests/test_simt_slim_gpu.py tests/test_simt_stream_gpu.py \
  tests/test_planner_gpu.py tests/test_planner.py 2>&1 | tee $W/tests.txt | tail -3
(cd tests && timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 python3 -m pytest -q -p no:cacheprovider \
  test_simt_slim_gpu.py -k "(products and 257) or batches" 2>&1 | tail -4) | tee $W/memcheck.txt
timeout 150 python3 -m bench --sections throughput --no-xla --no-plots --methods ecgemm --max-minutes 2 --out $W/narrow \
  --shapes 9001x2785x19,16x16384x16384,8x4096x4096,4096x4096x24,32x4096x8192,22x138x4178,20000x1000x12,1000x20000x30,64x8192x8192,12000x3000x48 \
  > $W/narrow.log 2>&1; echo "narrow exit $?"
grep -B2 -A14 "^| shape\|^| m" $W/narrow/*.md 2>/dev/null | head -60
timeout 200 python3 -m bench.random --seed 26 --out $W/random-seed26 --max-minutes 2.8 > $W/random.log 2>&1
echo "random exit $?"; grep -A5 "^| mode" $W/random-seed26/table.md | head -6
