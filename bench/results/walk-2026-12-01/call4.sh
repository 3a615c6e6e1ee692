#!/usr/bin/env bash
# Device call 4 (README.md): where the walk starts to pay: ab.py (pins planes:walk / planes:plain) on grids of
# 2-6 waves, with and without split-K, including the two sweep products of call 2 that walked near the boundary.
set -o pipefail
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real \
  -C build-dir=/tmp/b4 . > $OUT/build.txt 2>&1; echo "build exit $?"
timeout 150 python3 bench/results/walk-2026-12-01/ab.py $OUT/ab.jsonl \
  "1073,618,1831;1306,52,4868;2048,64,3072;2560,64,2560;3072,128,3072;3584,64,3584;1536,1536,1536;2048,256,2560" \
  2>&1 | tee $OUT/ab.txt | cut -c1-150
