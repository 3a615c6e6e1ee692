#!/usr/bin/env bash
# Device call 3 (README.md here): the general kernels' cost rows refitted to call 2's kernels, and the held-out sample.
# (f) this tree built from a copy; calibration on it (seed 27, as aligned-copies call 12: the narrow and wide pins on
# products with a side <= 64, the wide pin on the whole sample); tools.fit_cost_model writes the four general rows
# into the copy from those runs; the copy rebuilt (its build folder kept: only the coefficients recompile); the
# held-out sample (seed 26) on main (63b9633, .baseline) then on (f); compare.py, residuals.py.
set -o pipefail
export PYTHONUNBUFFERED=1
C=$PWD/bench/results/cluster-2026-11-26
N=$PWD/bench/results/narrow-tiles-2026-11-26
W=/tmp/c3; rm -rf $W; mkdir -p $W
R=bench/results/checks-2026-11-27/call3
trap 'cp /tmp/src-f/libecgemm/cost_coefficients.inc $W/ 2>/dev/null; cp -r /tmp/src-f/$R/. $W/ 2>/dev/null; tar czf $OUT/call3.tgz -C $W --exclude="*.png" .' EXIT
T0=$(date +%s)
python3 -c "import scipy; print('scipy', scipy.__version__)"
rm -rf /tmp/src-f && mkdir /tmp/src-f && tar -c --exclude=./.baseline --exclude=./bench/results . | tar -x -C /tmp/src-f
mkdir -p /tmp/src-f/$R
BUILD="python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real"
$BUILD --target /tmp/site-base -C build-dir=/tmp/bbase .baseline > $W/build-base.txt 2>&1 &
$BUILD --target /tmp/site-f -C build-dir=/tmp/bf /tmp/src-f > $W/build-f.txt 2>&1
echo "build exit $?"; wait; echo "builds done $(( $(date +%s) - T0 )) s"; grep -h "Successfully installed" $W/build*.txt | wc -l
for f in $W/build-*.txt; do tail -3 $f > $f.t && mv $f.t $f; done
cd /tmp/src-f
export ECGEMM_LIBRARY=$(ls /tmp/site-f/ecgemm/lib/libecgemm.so* | head -1)
PYTHONPATH=/tmp/site-f timeout 100 python3 -m bench.random --seed 27 --count 1000 --batched-count 300 --max-width 64 \
  --modes tf32tf32,halfhalf --families fused_wgmma:narrow,fused_wgmma --out $R/narrow --max-minutes 1.0 --no-plots > $W/narrow.log 2>&1
echo "narrow exit $? $(( $(date +%s) - T0 )) s"; tail -1 $W/narrow.log
PYTHONPATH=/tmp/site-f timeout 100 python3 -m bench.random --seed 27 --count 1000 --batched-count 300 --modes tf32tf32,halfhalf \
  --families fused_wgmma --out $R/wide --max-minutes 1.0 --no-plots > $W/wide.log 2>&1
echo "wide exit $? $(( $(date +%s) - T0 )) s"; tail -1 $W/wide.log
gzip -f $R/narrow/results.json $R/wide/results.json
python3 -m tools.fit_cost_model $R/narrow/results.json.gz --rows fused_wgmma_narrow_general/tf32tf32,fused_wgmma_narrow_general/halfhalf \
  --write --report $R/narrow/fit.md > /dev/null 2> $W/fit-narrow.txt; echo "fit narrow exit $?"
python3 -m tools.fit_cost_model $R/wide/results.json.gz --rows fused_wgmma_general/tf32tf32,fused_wgmma_general/halfhalf \
  --write --report $R/wide/fit.md > /dev/null 2> $W/fit-wide.txt; echo "fit wide exit $?"
grep general libecgemm/cost_coefficients.inc | cut -c1-150
unset ECGEMM_LIBRARY
$BUILD --target /tmp/site-f -C build-dir=/tmp/bf /tmp/src-f > $W/rebuild-f.txt 2>&1
echo "rebuild exit $? $(( $(date +%s) - T0 )) s"; tail -1 $W/rebuild-f.txt
cd /tmp
for v in base f; do
  PYTHONPATH=/tmp/site-$v timeout 90 python3 -m bench.random --seed 26 --out $W/random-$v --max-minutes 0.9 --no-plots > $W/random-$v.log 2>&1
  echo "random $v exit $? $(( $(date +%s) - T0 )) s"; grep -E "^\| (tf32tf32|halfhalf|auto) \| (1018|200) " $W/random-$v/table.md | cut -c1-70
done
python3 $C/compare.py $W/random-f/results.json $W/random-base/results.json > $W/compare.txt 2>&1; grep -A8 "^gemm tf32tf32\|^gemm halfhalf" $W/compare.txt | cut -c1-300
python3 $N/residuals.py $W/random-f/results.json
gzip -f $W/random-*/results.json $W/*.log
