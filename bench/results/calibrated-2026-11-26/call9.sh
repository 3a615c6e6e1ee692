#!/usr/bin/env bash
# Device call 9 (README.md here): fused_mma's split test (run_bits) takes two values a step through sm_90's three-input
# min/max (__vimax3_u32, __vimin3_u32) against main (a295a3a, carried as .baseline): SASS instruction counts of the
# guarded 64-tile kernel, ncu of guard_probe.py in both modes and trees, the fused_mma and AUTO fused GPU tests (bits),
# and one held-out round for each tree.
set -o pipefail
export PYTHONUNBUFFERED=1
D=$PWD/bench/results/calibrated-2026-11-26
W=/tmp/k9; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call9.tgz -C $W --exclude="*.png" .' EXIT
T0=$(date +%s)
BUILD="python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real"
$BUILD --target /tmp/base-site -C build-dir=/tmp/bbase .baseline > $W/build-base.txt 2>&1 &
$BUILD -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"; wait; echo "builds done $(( $(date +%s) - T0 )) s"
NEW=$(python3 -c "import ecgemm, pathlib; print(next(pathlib.Path(ecgemm.__file__).parent.rglob('libecgemm.so*')))")
BASE=$(find /tmp/base-site -name 'libecgemm.so*' | head -1)
for t in NEW BASE; do
  lib=${!t}
  cuobjdump -sass "$lib" 2>/dev/null | awk '/Function : .*fused_mma_kernel/{f=$0; n=0; next} /Function :/{if (f!="") print n, f; f=""} f!="" && /\/\*[0-9a-f]+\*\/ /{n++} END{if (f!="") print n, f}' \
    | grep -E "TcMethodE0ELi64|TcMethodE0ELi32" | sed 's/Function : _ZN6ecgemm6detail[^f]*//' > $W/sass-$t.txt
  echo "$t SASS instructions (tf32tf32 kernels, forms 0 products / 1 FP32 blocks):"; head -20 $W/sass-$t.txt | cut -c1-110
done
cd /tmp
for tree in new base; do
  for mode in tf32tf32 auto; do
    tag="$tree-$mode"
    if [ $tree = base ]; then export PYTHONPATH=/tmp/base-site; else unset PYTHONPATH; fi
    timeout 90 ncu --clock-control none --kernel-name regex:fused_mma --launch-skip 2 --launch-count 1 \
      --section SpeedOfLight --section InstructionStats --csv --page details \
      python3 $D/guard_probe.py $mode 1073 618 1831 > $W/ncu-$tag.csv 2> $W/ncu-$tag.err
    echo "$tag exit $? $(grep -E '"(Duration|Executed Instructions)"' $W/ncu-$tag.csv | awk -F'","' '{printf "%s %s; ", $(NF-2), $NF}')"
  done
done
unset PYTHONPATH
cd - > /dev/null
timeout 150 python3 -m pytest -q -p no:cacheprovider -rfEs -n 8 tests/test_fused_mma_gpu.py tests/test_auto_fused_gpu.py \
  > $W/tests.txt 2>&1
echo "tests exit $? $(( $(date +%s) - T0 )) s"; tail -n 1 $W/tests.txt; grep -E "^FAILED|^ERROR" $W/tests.txt | head -8
timeout 100 python3 -m bench.random --seed 26 --out $W/random1 --max-minutes 1.5 --no-plots > $W/random1.log 2>&1
echo "random1 exit $? $(( $(date +%s) - T0 )) s"; grep -E "^\| (tf32tf32|halfhalf|auto) \| (1018|200) " $W/random1/table.md
PYTHONPATH=/tmp/base-site timeout 100 python3 -m bench.random --seed 26 --out $W/base1 --max-minutes 1.5 --no-plots \
  > $W/base1.log 2>&1
echo "base1 exit $? $(( $(date +%s) - T0 )) s"; grep -E "^\| (tf32tf32|halfhalf|auto) \| (1018|200) " $W/base1/table.md
python3 $D/../cluster-2026-11-26/compare.py $W/random1/results.json $W/base1/results.json > $W/compare1.txt
grep -E "^(gemm|batched)|routes changed" $W/compare1.txt | head -12
gzip -f $W/random*/results.json $W/base*/results.json $W/*.log
