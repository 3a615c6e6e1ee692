#!/usr/bin/env bash
# Device call 1 (README.md here): GEMV's along-the-long-side kernel in six variants of its register budget and rows in
# flight (gemv_len_lab.py; one library built from .lab, this tree with along_len_lab.patch), tf32tf32, pinned.
set -o pipefail
export PYTHONUNBUFFERED=1
D=$PWD/bench/results/gemv-len-2026-11-27
W=/tmp/l1; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call1.tgz -C $W .' EXIT
T0=$(date +%s)
python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real \
  --target /tmp/site-lab -C build-dir=/tmp/blab .lab > $W/build-lab.txt 2>&1
echo "build exit $? $(( $(date +%s) - T0 )) s"; tail -1 $W/build-lab.txt
tail -3 $W/build-lab.txt > $W/b && mv $W/b $W/build-lab.txt
(cd /tmp && PYTHONPATH=/tmp/site-lab timeout 200 python3 $D/gemv_len_lab.py $W/gemv_len_lab.jsonl > $W/gemv_len_lab.txt 2>&1)
echo "lab exit $? $(( $(date +%s) - T0 )) s"; cut -c1-200 $W/gemv_len_lab.txt
