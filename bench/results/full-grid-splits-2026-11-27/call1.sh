#!/usr/bin/env bash
# Device call 1 (README.md here): the plane route split on grids that fill the GPU but end on a partial wave
# (planner.cpp: splits_fill_waves candidates, priced). The planner GPU tests; every product of the seed-26 sample whose
# plane plan changed, the planner's plan against the same route unsplit (ECGEMM_FAMILY=planes/unsplit) in one process
# beside cuBLAS, with residuals; two big squares as controls; the random sweep (seed 26).
set -o pipefail
export PYTHONUNBUFFERED=1
W=/tmp/f1; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call1.tgz -C $W --exclude="*.png" .' EXIT
T0=$(date +%s)
python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real \
  -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $? $(( $(date +%s) - T0 )) s"; tail -1 $W/build.txt
timeout 90 python3 -m pytest -q -p no:cacheprovider -rfE -n 4 tests/test_planner_gpu.py > $W/pytest.txt 2>&1
echo "pytest exit $? $(( $(date +%s) - T0 )) s"; grep -E "^FAILED|^ERROR| passed| failed" $W/pytest.txt | cut -c1-300 | head -20
SHAPES="859,4533,2437;7971,4233,842;2114,11220,2645;7612,13347,530;4415,3830,484;3301,4724,721;11036,5054,210"
SHAPES="$SHAPES;2445,3171,1292;7107,7773,522;1232,1265,2314;782,1248,3431;711,2554,6740;370,4011,13716"
SHAPES="$SHAPES;1255,2999,7102;2024,5503,1706;1180,8468,10155;574,13722,10734;3039,12722,10596;4096,4096,4096;8192,8192,8192"
timeout 200 python3 tools/device.py route-times --shapes "$SHAPES" --modes tf32tf32,halfhalf,auto --routes default \
  --env ECGEMM_FAMILY=planes/unsplit > $W/route-times.txt 2>&1
echo "route-times exit $? $(( $(date +%s) - T0 )) s"; grep -E "cublas| x[ 0-9.]+ " $W/route-times.txt | cut -c1-100 | head -150
timeout 115 python3 -m bench.random --seed 26 --max-minutes 0.9 --out $W/random-26 --no-plots > $W/random-26.log 2>&1
echo "random exit $? $(( $(date +%s) - T0 )) s"; grep -E "^\| (tf32tf32|halfhalf|auto) \| [0-9]+ \| " $W/random-26/table.md | cut -c1-60
python3 bench/results/narrow-tiles-2026-11-26/residuals.py $W/random-26/results.json
gzip -f $W/random-26/results.json $W/*.log
echo "done $(( $(date +%s) - T0 )) s"
