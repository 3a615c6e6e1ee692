#!/usr/bin/env bash
# Device call J (README.md): main as landed after call I (the FP32 form's FP64 sums narrowed to two CTAs an SM) with
# simt's dot tile summing in FP64 (`git apply dot_fp64.patch` first): the build, the dot tile's, GEMV's, the FP32
# form's, simt's stream and the planner's GPU tests, then seed 26's sweep, as device time allows (LIMIT, seconds).
set -o pipefail
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
T0=$(date +%s); O=$OUT/callJ
LIMIT=${LIMIT:-280}
mkdir -p $O
save() { tar -czf $OUT/callJ.tgz -C $OUT callJ; }
left() { echo $(( LIMIT - ($(date +%s) - T0) )); }
nvidia-smi --query-gpu=name,clocks.sm,power.draw,temperature.gpu --format=csv,noheader
python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real \
  -C build-dir=/tmp/b-tree . > $O/build.txt 2>&1; echo "build exit $? $(( $(date +%s) - T0 )) s"
timeout $(( $(left) > 100 ? 100 : $(left) )) python3 -m pytest -q -p no:cacheprovider -rfE -n 14 tests/test_simt_dot_gpu.py \
  tests/test_gemv_gpu.py tests/test_fused_mma_fp32_gpu.py tests/test_simt_stream_gpu.py tests/test_planner_gpu.py \
  tests/test_planner.py > $O/tests.txt 2>&1
echo "tests exit $? $(( $(date +%s) - T0 )) s"; tail -n 1 $O/tests.txt; grep -E "^FAILED|^ERROR" $O/tests.txt | cut -c1-220 | head; save
if [ $(left) -gt 45 ]; then
  timeout $(left) python3 -m bench.random --seed 26 --max-minutes 1.0 --out $O/random-26 --no-plots > $O/random-26.log 2>&1
  echo "random exit $? $(( $(date +%s) - T0 )) s"; grep -E "^\| (tf32tf32|halfhalf|auto) \| [0-9]+ \| " $O/random-26/table.md | cut -c1-100
  gzip -f $O/random-26/results.json $O/random-26.log
fi
save
