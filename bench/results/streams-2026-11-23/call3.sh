#!/usr/bin/env bash
# Device call 3 (a fresh machine): both builds again; the whole test suite on the new
# build (4 pytest workers on the one GPU; the test that fills device memory alone, after).
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/w3; mkdir -p $W
trap 'tar czf $OUT/call3.tgz -C $W .' EXIT
pip_build() { python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real "$@"; }
(pip_build -C build-dir=/tmp/bnew . > $W/build_new.txt 2>&1; echo "new build exit $?") &
(pip_build -C build-dir=/tmp/bold --target /tmp/oldsite .old > $W/build_old.txt 2>&1; echo "old build exit $?") &
wait
timeout 390 python3 -m pytest -n 4 -q -p no:cacheprovider -rfEs tests -k "not short_of_memory" \
  > $W/suite.txt 2>&1; echo "suite exit $?"; tail -25 $W/suite.txt
timeout 60 python3 -m pytest -q -p no:cacheprovider -rfEs tests/test_streams_gpu.py -k short_of_memory 2>&1 | tail -3
