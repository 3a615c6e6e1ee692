#!/usr/bin/env bash
# Device call 5: the GEMV family takes batches (grid.z walks the products, never split):
# its tests and memcheck, the held-out sweep (seed 26), then the whole GPU suite on this tree.
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/s5; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call5.tgz -C $W .' EXIT
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $W/gpu.txt
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"
(cd tests && timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 python3 -m pytest -q -p no:cacheprovider \
  test_gemv_gpu.py -k "batches and fp32 and (N-T or T-N)" 2>&1 | tail -3) | tee $W/memcheck.txt
timeout 220 python3 -m bench.random --seed 26 --out $W/random-seed26 --max-minutes 3 > $W/random.log 2>&1
echo "random exit $?"; grep "^| tf32tf32 | 1018\|^| halfhalf | 1018\|^| auto | 1018\|^| tf32tf32 | 200\|^| halfhalf | 200\|^| auto | 200" $W/random-seed26/table.md
timeout 480 python3 -m pytest -q -p no:cacheprovider -rfEs -n 8 tests 2>&1 | tee $W/suite.txt | tail -4
