#!/usr/bin/env bash
# Device call 4 (README.md here): the final tree, with GEMV's along-the-long-side register budget
# (gemv-len-2026-11-27): every GPU test; GEMV pinned against cuBLAS on products with a thin side of 2 and 3.
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/r4; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call4.tgz -C $W .' EXIT
T0=$(date +%s)
python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real \
  -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $? $(( $(date +%s) - T0 )) s"; tail -3 $W/build.txt > $W/b && mv $W/b $W/build.txt
timeout 270 python3 -m pytest -q -p no:cacheprovider -rfE -n 8 tests > $W/pytest.txt 2>&1
echo "pytest exit $? $(( $(date +%s) - T0 )) s"; grep -E "^FAILED|^ERROR| passed| failed" $W/pytest.txt | cut -c1-250 | head -20
timeout 40 python3 tools/device.py route-times --shapes "4096,4096,2;1000,30000,3;4096,4096,3;8192,8192,2" \
  --modes tf32tf32 --routes gemv --layouts TN > $W/route-times-gemv.txt 2>&1
echo "route-times exit $? $(( $(date +%s) - T0 )) s"; grep -E "cublas|gemv" $W/route-times-gemv.txt | cut -c1-120
