#!/usr/bin/env bash
# Device call 3 (README.md here): call 2's suite again, with a longer limit (call 2's 200 s ran out at 99%).
W=/tmp/p3; mkdir -p $W
python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real \
  -C build-dir=/tmp/bnew . > $W/build.txt 2>&1; echo "build $? $(date +%T)"
timeout 450 python3 -m pytest -q -p no:cacheprovider -rfEs -n 8 --durations=25 tests -k "not short_of_memory" \
  > $W/suite.txt 2>&1
echo "suite exit $?"; grep -E "passed|failed" $W/suite.txt | tail -2; grep -E "^FAILED|^ERROR" $W/suite.txt | head
cp $W/suite.txt $OUT/; echo "end $(date +%T)"
