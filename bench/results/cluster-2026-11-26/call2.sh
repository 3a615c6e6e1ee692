#!/usr/bin/env bash
# Device call 2 (README.md here): the cluster reduction's shares over the columns C has (the loop as on main),
# against main (a3c7e06, carried as .baseline): bits, fused_mma and streams GPU tests, the held-out sample for both
# trees; then exp_splits.patch's build: the cluster-reduced held-out shapes with their splits capped
# (splits_ab.py), and memcheck over cluster_check.py.
set -o pipefail
export PYTHONUNBUFFERED=1
D=$PWD/bench/results/cluster-2026-11-26
F=$PWD/bench/results/fused-latency-2026-11-26
W=/tmp/c2; rm -rf $W; mkdir -p $W /tmp/exp
trap 'tar czf $OUT/call2.tgz -C $W --exclude=base.pt --exclude="*.png" .' EXIT
tar -c --exclude=./bench/results --exclude=./.baseline . | tar -x -C /tmp/exp && (cd /tmp/exp && patch -p1 < $D/exp_splits.patch > /dev/null)
BUILD="python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real"
$BUILD --target /tmp/base-site -C build-dir=/tmp/bbase .baseline > $W/build-base.txt 2>&1 &
$BUILD --target /tmp/exp-site -C build-dir=/tmp/bexp /tmp/exp > $W/build-exp.txt 2>&1 &
$BUILD -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"; wait; echo "other builds done"; grep -ci "spill" $W/build.txt
cd /tmp
PYTHONPATH=/tmp/base-site python3 $F/bits.py save $W/base.pt > $W/bits-base.txt 2>&1; echo "bits base exit $?"
python3 $F/bits.py check $W/base.pt > $W/bits.txt 2>&1; echo "bits exit $?"; tail -1 $W/bits.txt
cd - > /dev/null
timeout 150 python3 -m pytest -q -p no:cacheprovider -rfEs -n 8 tests/test_fused_mma_gpu.py tests/test_streams_gpu.py \
  > $W/tests.txt 2>&1
echo "tests exit $?"; tail -n 1 $W/tests.txt; grep -E "^FAILED|^ERROR" $W/tests.txt | head -8
PYTHONPATH=/tmp/base-site timeout 120 python3 -m bench.random --seed 26 --out $W/base-random --max-minutes 1.4 \
  --no-plots > $W/base-random.log 2>&1
echo "baseline random exit $?"; grep -E "^\| (tf32tf32|halfhalf|auto) \| (1018|200) " $W/base-random/table.md
timeout 120 python3 -m bench.random --seed 26 --out $W/random --max-minutes 1.4 --no-plots > $W/random.log 2>&1
echo "random exit $?"; grep -E "^\| (tf32tf32|halfhalf|auto) \| (1018|200) " $W/random/table.md
python3 $D/compare.py $W/random/results.json $W/base-random/results.json | tee $W/compare.txt
gzip -f $W/random/results.json $W/base-random/results.json
cd /tmp
PYTHONPATH=/tmp/exp-site timeout 120 python3 $D/splits_ab.py $D/cluster_shapes.txt $W/splits.json > $W/splits.txt 2>&1
echo "splits exit $?"; gzip -f $W/splits.json
timeout 90 compute-sanitizer --tool memcheck --error-exitcode 3 python3 $D/cluster_check.py > $W/memcheck.txt 2>&1
echo "memcheck exit $?"; tail -2 $W/memcheck.txt
