#!/usr/bin/env bash
# Device call 8 (README.md here): the tree as landed (store_lanes at 4 < k <= 18 where C's columns start off a 16-byte
# boundary) and call 2's staged stores (call2_store_staged.patch on 7782dd3, never timed in a graph) against 7782dd3
# (.baseline, carried): store_ab.py with the stream tile pinned (base, new, staged, staged, new, base); the GPU tests
# that run the stream tile; the random sweep, seed 26 (README's first row and plot).
set -o pipefail
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
D=bench/results/shortk-2026-11-27
W=/tmp/k8; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call8.tgz -C $W --exclude="*.png" .' EXIT
T0=$(date +%s)
tar xzf .device/baseline.tgz  # .baseline
rm -rf /tmp/staged && cp -r .baseline /tmp/staged && patch -d /tmp/staged -p1 < $D/call2_store_staged.patch > $W/patch.txt || echo "patch failed"
PIP="python3 -m pip install --no-deps --no-build-isolation --no-index -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real"
$PIP -C build-dir=/tmp/b8-base --target /tmp/site-base .baseline > $W/build-base.txt 2>&1 &
PB=$!
$PIP -C build-dir=/tmp/b8-staged --target /tmp/site-staged /tmp/staged > $W/build-staged.txt 2>&1 &
PS=$!
$PIP -C build-dir=/tmp/b8-new . > $W/build-new.txt 2>&1; echo "build new exit $? $(( $(date +%s) - T0 )) s"
wait $PB; echo "build base exit $? $(( $(date +%s) - T0 )) s"
wait $PS; echo "build staged exit $? $(( $(date +%s) - T0 )) s"
site() { case $1 in base*) echo /tmp/site-base:$PWD;; staged*) echo /tmp/site-staged:$PWD;; *) echo $PWD;; esac; }
for run in base1 new1 staged1 staged2 new2 base2; do
  PYTHONPATH=$(site $run) timeout 70 python3 $D/store_ab.py $W/final-$run.jsonl > /dev/null 2> $W/final-$run.log
  echo "store_ab $run exit $? $(( $(date +%s) - T0 )) s"
done
python3 $D/summarize_store.py $W/final-{base1,new1,new2,base2}.jsonl > $OUT/lanes-final.md; tail -4 $OUT/lanes-final.md
python3 $D/summarize_store.py $W/final-{base1,staged1,staged2,base2}.jsonl > $OUT/staged-graph.md; tail -4 $OUT/staged-graph.md
TESTS="tests/test_simt_stream_gpu.py tests/test_simt_strips_gpu.py tests/test_planner_gpu.py tests/test_c_abi_gpu.py tests/test_c_batched_gpu.py tests/test_streams_gpu.py"
timeout 150 python3 -m pytest -q -p no:cacheprovider -rfE -n 8 $TESTS > $W/pytest.txt 2>&1
echo "pytest exit $? $(( $(date +%s) - T0 )) s"; grep -E "^FAILED|^ERROR| passed| failed" $W/pytest.txt | cut -c1-250 | head -12
timeout 115 python3 -m bench.random --seed 26 --max-minutes 0.9 --out $W/random-26 --no-plots > $W/random-26.log 2>&1
echo "random exit $? $(( $(date +%s) - T0 )) s"; grep -E "^\| (tf32tf32|halfhalf|auto) \| [0-9]+ \| " $W/random-26/table.md | cut -c1-60
python3 bench/results/narrow-tiles-2026-11-26/residuals.py $W/random-26/results.json
gzip -f $W/random-26/results.json $W/*.log
echo "done $(( $(date +%s) - T0 )) s"
