#!/usr/bin/env bash
# Device call 3 (README.md here): the landed tree (rows interleaved from k = 8 only, kStripInterleaveMinK): every GPU
# test; the random sweep (seed 26), README's first row.
set -o pipefail
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
W=/tmp/s3; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call3.tgz -C $W .' EXIT
T0=$(date +%s)
python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real \
  -C build-dir=/tmp/b1-new . > $W/build.txt 2>&1; echo "build exit $? $(( $(date +%s) - T0 )) s"; tail -3 $W/build.txt > $W/b.t && mv $W/b.t $W/build.txt
timeout 300 python3 -m pytest -q -p no:cacheprovider -rfE -n 8 tests > $W/pytest.txt 2>&1
echo "pytest exit $? $(( $(date +%s) - T0 )) s"; grep -E "^FAILED|^ERROR| passed| failed" $W/pytest.txt | cut -c1-250 | head -12
LEFT=$(( 560 - ($(date +%s) - T0) ))
timeout $LEFT python3 -m bench.random --seed 26 --max-minutes 1.2 --out $W/random-26 --no-plots > $W/random-26.log 2>&1
echo "random exit $? $(( $(date +%s) - T0 )) s"; grep -E "^\| (tf32tf32|halfhalf|auto) \| [0-9]+ \| " $W/random-26/table.md | cut -c1-60
gzip -f $W/random-26/results.json $W/*.log
