#!/usr/bin/env bash
# Device call 13 (README.md here): fused_wgmma's cost rows apart by kernel (the general kernel's own rows, fitted on
# call 12's calibration with the narrow rows) — (x) this tree; (y) (x) with the wide aligned rows refitted there too
# (call13_wide_rows.patch) — against main (ba37795, .baseline) on the held-out sample (seed 26); the planner and
# fused_wgmma GPU tests on (x).
set -o pipefail
export PYTHONUNBUFFERED=1
D=$PWD/bench/results/aligned-copies-2026-11-27
C=$PWD/bench/results/cluster-2026-11-26
N=$PWD/bench/results/narrow-tiles-2026-11-26
W=/tmp/a13; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call13.tgz -C $W --exclude="*.png" .' EXIT
T0=$(date +%s)
rm -rf /tmp/src-y && mkdir /tmp/src-y && tar -c --exclude=./.baseline --exclude=./bench/results . | tar -x -C /tmp/src-y
(cd /tmp/src-y && patch -p1 < $D/call13_wide_rows.patch) > $W/patch.txt 2>&1
BUILD="python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real"
$BUILD --target /tmp/site-base -C build-dir=/tmp/bbase .baseline > $W/build-base.txt 2>&1 &
$BUILD --target /tmp/site-y -C build-dir=/tmp/by /tmp/src-y > $W/build-y.txt 2>&1 &
$BUILD -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"; wait; echo "builds done $(( $(date +%s) - T0 )) s"; grep -h "Successfully installed" $W/build*.txt | wc -l
for f in $W/build*.txt; do tail -3 $f > $f.t && mv $f.t $f; done
timeout 100 python3 -m pytest -q -p no:cacheprovider -rfEs -n 8 tests/test_planner_gpu.py tests/test_fused_wgmma_narrow_gpu.py > $W/tests.txt 2>&1
echo "tests exit $? $(( $(date +%s) - T0 )) s"; tail -n 1 $W/tests.txt; grep -E "^FAILED|^ERROR" $W/tests.txt | head -5
site() { case $1 in base) echo /tmp/site-base;; x) echo "";; y) echo /tmp/site-y;; esac; }
for v in base x y; do
  PYTHONPATH=$(site $v) timeout 90 python3 -m bench.random --seed 26 --out $W/random-$v --max-minutes 1.1 --no-plots > $W/random-$v.log 2>&1
  echo "random $v exit $? $(( $(date +%s) - T0 )) s"; grep -E "^\| (tf32tf32|halfhalf|auto) \| (1018|200) " $W/random-$v/table.md | cut -c1-60
done
for v in x y; do python3 $C/compare.py $W/random-$v/results.json $W/random-base/results.json > $W/compare-$v.txt 2>&1; echo "== $v"; grep -A3 "^gemm tf32tf32\|^gemm halfhalf" $W/compare-$v.txt | cut -c1-400; done
python3 $N/residuals.py $W/random-x/results.json
gzip -f $W/random-*/results.json $W/*.log
