#!/usr/bin/env bash
# Device call 1 (README.md here): fused_mma's 32-wide tile with two FP32 stages in flight (TileShape::kFp32Stages),
# against main (9c41db3, carried as .baseline), and a variant with two stages in the 64-wide tile too (three CTAs an
# SM there; built from this tree with the constants edited): the fused_mma and AUTO GPU tests; every fused_mma tile
# pinned on the calibration sample's thin cases (seed 27, min(m, n) <= 160) in each build; the held-out sample
# (seed 26) once for this tree and main.
set -o pipefail
export PYTHONUNBUFFERED=1
D=$PWD/bench/results/ring-2026-11-26
W=/tmp/r1; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call1.tgz -C $W --exclude="*.png" .' EXIT
T0=$(date +%s)
rm -rf /tmp/v64 && mkdir /tmp/v64 && git ls-files -co --exclude-standard -z | grep -zv '^bench/results/' | xargs -0 cp --parents -t /tmp/v64
sed -i -e 's/kCtasPerSm = kT == 64 ? 4 : 6/kCtasPerSm = kT == 64 ? 3 : 6/' \
  -e 's/kFp32Stages = kT == 32 ? 2 : 1/kFp32Stages = 2/' /tmp/v64/libecgemm/kernels/sm80/fused_mma.cu
grep -c "kFp32Stages = 2;" /tmp/v64/libecgemm/kernels/sm80/fused_mma.cu
BUILD="python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real"
$BUILD --target /tmp/base-site -C build-dir=/tmp/bbase .baseline > $W/build-base.txt 2>&1 &
$BUILD --target /tmp/v64-site -C build-dir=/tmp/bv64 /tmp/v64 > $W/build-v64.txt 2>&1 &
$BUILD -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"; wait; echo "builds done $(( $(date +%s) - T0 )) s"; tail -n 2 $W/build-v64.txt
timeout 150 python3 -m pytest -q -p no:cacheprovider -rfEs -n 8 tests/test_fused_mma_gpu.py tests/test_fused_mma_fp32_gpu.py \
  tests/test_auto_fused_gpu.py tests/test_auto_scaled_gpu.py > $W/tests.txt 2>&1
echo "tests exit $? $(( $(date +%s) - T0 )) s"; tail -n 1 $W/tests.txt; grep -E "^FAILED|^ERROR" $W/tests.txt | head -8
PINS="--seed 27 --count 1000 --batched-count 300 --max-width 160 --modes tf32tf32,halfhalf"
PINS="$PINS --families fused_mma:64,fused_mma:32,fused_mma:64/unsplit,fused_mma:32/unsplit --max-minutes 1.2 --no-plots"
for t in new base v64; do
  case $t in new) PP=;; base) PP=/tmp/base-site;; v64) PP=/tmp/v64-site;; esac
  PYTHONPATH=$PP timeout 80 python3 -m bench.random $PINS --out $W/pinned-$t > $W/pinned-$t.log 2>&1
  echo "pinned-$t exit $? $(( $(date +%s) - T0 )) s"
done
timeout 100 python3 -m bench.random --seed 26 --out $W/random --max-minutes 1.4 --no-plots > $W/random.log 2>&1
echo "random exit $? $(( $(date +%s) - T0 )) s"; grep -E "^\| (tf32tf32|halfhalf|auto) \| (1018|200) " $W/random/table.md
PYTHONPATH=/tmp/base-site timeout 100 python3 -m bench.random --seed 26 --out $W/base --max-minutes 1.4 --no-plots > $W/base.log 2>&1
echo "base exit $? $(( $(date +%s) - T0 )) s"; grep -E "^\| (tf32tf32|halfhalf|auto) \| (1018|200) " $W/base/table.md
python3 $D/../cluster-2026-11-26/compare.py $W/random/results.json $W/base/results.json > $W/compare.txt
grep -E "^(gemm|batched)|routes changed|->" $W/compare.txt | head -30
python3 $D/pinned.py $W/pinned-new/results.json $W/pinned-base/results.json $W/pinned-v64/results.json > $W/pinned.txt
cat $W/pinned.txt | head -40
gzip -f $W/random/results.json $W/base/results.json $W/pinned-*/results.json $W/*.log
