#!/usr/bin/env bash
# Device call 5 (README.md here): the final tree (call 3's kernel; the strip row as on main, call 4's rescale dropped):
# every GPU test, then profile.py.
set -o pipefail
export PYTHONUNBUFFERED=1
T0=$(date +%s)
python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real \
  -C build-dir=/tmp/random-ab/build-new . > $OUT/build.txt 2>&1
echo "build exit $? $(( $(date +%s) - T0 )) s"; tail -1 $OUT/build.txt
timeout 330 python3 -m pytest -q -p no:cacheprovider -rfE -n 8 tests > $OUT/pytest.txt 2>&1
echo "pytest exit $? $(( $(date +%s) - T0 )) s"; grep -E "^FAILED|^ERROR| passed| failed" $OUT/pytest.txt | cut -c1-300 | head -20
timeout 40 python3 bench/results/batched-fp32-2026-11-27/profile.py | tee $OUT/times.txt
