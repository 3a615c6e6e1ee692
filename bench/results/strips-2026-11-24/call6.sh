#!/usr/bin/env bash
# Device call 6 (README.md here): main's final tree of this session. Build; the whole GPU suite;
# compute-sanitizer memcheck over the strip tile's kernel (alpha/beta, batch forms and modes,
# bits against each product alone).
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/s6; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call6.tgz -C $W .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"
timeout 240 python3 -m pytest -q -p no:cacheprovider -rfEs -n 8 tests -k "not short_of_memory" > $W/suite.txt 2>&1
echo "suite exit $?"; tail -3 $W/suite.txt
timeout 240 compute-sanitizer --tool memcheck --kernel-name kns=simt_strip_kernel \
  python3 -m pytest -q -p no:cacheprovider tests/test_simt_strips_gpu.py \
  -k "alpha_beta or batch_counts or bits" > $W/memcheck.txt 2>&1
echo "memcheck exit $?"; grep -E "ERROR SUMMARY|passed|failed" $W/memcheck.txt | tail -3
