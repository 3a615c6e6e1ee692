#!/usr/bin/env bash
# Device call 2 (README.md here): the simt slim row and fused_wgmma's narrow rows refitted together. (f) this tree built
# from a copy; calibration on it (seed 27, products with a side <= 32, simt and the narrow tiles pinned, tf32tf32 and
# halfhalf); tools.fit_cost_model writes those rows into the copy; the copy rebuilt (only the coefficients recompile);
# the held-out sample (seed 26) on this tree (base) then on (f); compare.py, residuals.py.
set -o pipefail
export PYTHONUNBUFFERED=1
C=$PWD/bench/results/cluster-2026-11-26
N=$PWD/bench/results/narrow-tiles-2026-11-26
W=/tmp/v2; rm -rf $W; mkdir -p $W
R=bench/results/slim-vs-narrow-2026-11-27/call2
trap 'cp /tmp/src-f/libecgemm/cost_coefficients.inc $W/ 2>/dev/null; cp -r /tmp/src-f/$R/. $W/ 2>/dev/null; tar czf $OUT/call2.tgz -C $W --exclude="*.png" .' EXIT
T0=$(date +%s)
rm -rf /tmp/src-f && mkdir /tmp/src-f && tar -c --exclude=./bench/results . | tar -x -C /tmp/src-f
mkdir -p /tmp/src-f/$R
BUILD="python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real"
$BUILD --target /tmp/site-base -C build-dir=/tmp/bbase . > $W/build-base.txt 2>&1 &
$BUILD --target /tmp/site-f -C build-dir=/tmp/bf /tmp/src-f > $W/build-f.txt 2>&1
echo "build exit $?"; wait; echo "builds done $(( $(date +%s) - T0 )) s"; grep -h "Successfully installed" $W/build*.txt | wc -l
for f in $W/build-*.txt; do tail -3 $f > $f.t && mv $f.t $f; done
cd /tmp/src-f
export ECGEMM_LIBRARY=$(ls /tmp/site-f/ecgemm/lib/libecgemm.so* | head -1)
PYTHONPATH=/tmp/site-f timeout 110 python3 -m bench.random --seed 27 --count 1000 --batched-count 300 --max-width 32 \
  --modes tf32tf32,halfhalf --families simt,fused_wgmma:narrow --out $R/calib --max-minutes 1.3 --no-plots > $W/calib.log 2>&1
echo "calib exit $? $(( $(date +%s) - T0 )) s"; tail -1 $W/calib.log
gzip -f $R/calib/results.json
python3 -m tools.fit_cost_model $R/calib/results.json.gz \
  --rows simt/slim,fused_wgmma_narrow/tf32tf32,fused_wgmma_narrow/halfhalf,fused_wgmma_narrow_general/tf32tf32,fused_wgmma_narrow_general/halfhalf \
  --write --report $R/calib/fit.md > /dev/null 2> $W/fit.txt; echo "fit exit $?"; tail -3 $W/fit.txt
grep -E "simt/slim|narrow/|narrow_general/" libecgemm/cost_coefficients.inc | cut -c1-150
unset ECGEMM_LIBRARY
$BUILD --target /tmp/site-f -C build-dir=/tmp/bf /tmp/src-f > $W/rebuild-f.txt 2>&1
echo "rebuild exit $? $(( $(date +%s) - T0 )) s"; tail -1 $W/rebuild-f.txt
cd /tmp
for v in base f; do
  PYTHONPATH=/tmp/site-$v timeout 85 python3 -m bench.random --seed 26 --out $W/random-$v --max-minutes 0.8 --no-plots > $W/random-$v.log 2>&1
  echo "random $v exit $? $(( $(date +%s) - T0 )) s"; grep -E "^\| (tf32tf32|halfhalf|auto) \| (1018|200) " $W/random-$v/table.md | cut -c1-70
done
python3 $C/compare.py $W/random-f/results.json $W/random-base/results.json > $W/compare.txt 2>&1; grep -A8 "^gemm tf32tf32\|^gemm halfhalf" $W/compare.txt | cut -c1-300
python3 $N/residuals.py $W/random-f/results.json
gzip -f $W/random-*/results.json $W/*.log
echo "done $(( $(date +%s) - T0 )) s"
