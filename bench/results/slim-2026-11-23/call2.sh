#!/usr/bin/env bash
# Device call 2: the 32-wide slim tiles with k steps of 32 (twice the bytes in flight per
# barrier; call 1 found them latency-bound): registers, the slim tests, the narrow shapes.
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/s2; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call2.tgz -C $W .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"
so=$(python3 -c "import ecgemm, os; print(os.path.join(os.path.dirname(ecgemm.__file__), 'lib', 'libecgemm.so'))")
cuobjdump --dump-resource-usage $so 2>&1 | grep -A1 "simt_kernel" | grep -o "simt_kernelILi[0-9]*ELi[0-9]*ELi[0-9]*ELb[01]ELb[01]\|REG:[0-9]*\|STACK:[0-9]*\|LOCAL:[0-9]*" \
  | paste - - - - | grep "Li32E" > $W/registers.txt; cat $W/registers.txt
timeout 200 python3 -m pytest -q -p no:cacheprovider -rfEs -n 6 tests/test_simt_slim_gpu.py 2>&1 | tee $W/tests.txt | tail -2
timeout 150 python3 -m bench --sections throughput --no-xla --no-plots --methods tf32tf32 --max-minutes 2 --out $W/narrow \
  --shapes 9001x2785x19,4096x4096x24,1000x20000x30,32x4096x8192,20000x1000x30,24x8192x8192 \
  > $W/narrow.log 2>&1; echo "narrow exit $?"
grep "SGEMM\|tf32tf32" $W/narrow/table.md | head -20
