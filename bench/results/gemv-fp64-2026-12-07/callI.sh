#!/usr/bin/env bash
# Device call I (README.md): call H's tree corrected (gemv_fp64_i.patch: thin values staged without a division an
# element; one thin column along k and the lines kernel read a lane at a time again, as call G; a thin side of 2-4
# loaded a lane where the plan says so) against
# the baseline (f652b9b, carried as .baseline): big.py --pinned on each build, one machine. No tests, no sweep: the
# session's device time left (414 s) holds two builds and two big.py runs.
set -o pipefail
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
T0=$(date +%s); R=bench/results/gemv-fp64-2026-12-07; O=$OUT/callI
mkdir -p $O
for build in tree base; do
  src=.; [ $build = base ] && src=.baseline
  python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real \
    -C build-dir=/tmp/b-$build $src > $O/build-$build.txt 2>&1; echo "$build build exit $? $(( $(date +%s) - T0 )) s"
  mkdir -p $O/$build
  timeout 60 python3 $R/big.py $O/$build/big.jsonl --pinned > $O/$build/big.txt 2>&1; echo "$build big exit $? $(( $(date +%s) - T0 )) s"
  tar -czf $OUT/callI.tgz -C $OUT callI
done
paste <(cut -c1-60 $O/base/big.txt) <(cut -c20-60 $O/tree/big.txt)
