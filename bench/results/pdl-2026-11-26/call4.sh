#!/usr/bin/env bash
# Device call 4 (README.md here): test_a_call_reads_the_output_of_the_call_before_it (tests/test_streams_gpu.py) and
# the rest of the streams tests on this tree; then the same test on a copy whose first kernels do not wait at entry
# (every `wait_for_prior_grids();` deleted from simt.cu, gemv.cu, fused_mma.cu, fused_wgmma.cu, split_pass.cu): the
# test must fail there, or it could not catch a kernel that skips its wait.
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/p4; rm -rf $W /tmp/nowait; mkdir -p $W /tmp/nowait
trap 'tar czf $OUT/call4.tgz -C $W .' EXIT
tar -c --exclude=./bench/results --exclude=./.baseline --exclude=./.git . | tar -x -C /tmp/nowait
K=/tmp/nowait/libecgemm/kernels
sed -i '/wait_for_prior_grids();/d' $K/simt/simt.cu $K/simt/gemv.cu $K/sm80/fused_mma.cu $K/sm90/fused_wgmma.cu \
  $K/planes/split_pass.cu
grep -c "wait_for_prior_grids();" $K/simt/simt.cu $K/simt/gemv.cu $K/sm80/fused_mma.cu $K/sm90/fused_wgmma.cu \
  $K/planes/split_pass.cu
BUILD="python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real"
$BUILD --target /tmp/nowait-site -C build-dir=/tmp/bnowait /tmp/nowait > $W/build-nowait.txt 2>&1 &
$BUILD -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $? $(date +%T)"; wait; echo "no-wait build done $(date +%T)"
timeout 150 python3 -m pytest -q -p no:cacheprovider -rfEs -n 8 tests/test_streams_gpu.py > $W/streams.txt 2>&1
echo "streams exit $?"; tail -n 1 $W/streams.txt; grep -E "^FAILED|^ERROR" $W/streams.txt | head -10
PYTHONPATH=/tmp/nowait-site timeout 120 python3 -m pytest -q -p no:cacheprovider -rfEs tests/test_streams_gpu.py \
  -k reads_the_output > $W/nowait.txt 2>&1
echo "no-wait exit $? (must fail)"; tail -n 1 $W/nowait.txt; grep -E "^FAILED|^ERROR" $W/nowait.txt | cut -c1-150
python3 -c "import ecgemm, sys; print(ecgemm.__file__)"
PYTHONPATH=/tmp/nowait-site python3 -c "import ecgemm; print(ecgemm.__file__)"
echo "end $(date +%T)"
