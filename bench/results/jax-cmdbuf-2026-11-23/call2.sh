#!/usr/bin/env bash
# Device call 2: ECGEMM_VERBOSE marks captured calls; the command-buffer test attributes the
# handler's calls per program (call 1 showed XLA converts to command buffers after HLO, so the
# compiled HLO text cannot show it). Run 1 of this call found the first run plain, the second
# captured; this run gives each program four runs on the same buffers (plain, record, replay,
# replay), then new ones.
set -o pipefail
W=/tmp/w2b; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call2.tgz -C $W .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"
cd tests
XLA_FLAGS="--xla_gpu_enable_command_buffer=FUSION,CUSTOM_CALL --xla_gpu_graph_min_graph_size=1" ECGEMM_VERBOSE=1 \
  timeout 200 python3 jax_command_buffer_check.py /tmp/on.npz 2> $W/on_stderr.txt; echo "on exit $?"
# Per program: the handler's calls, and how many of them were captured.
awk '/^program /{p=$2} /^ecgemm: /{t[p]++; if (/ captured /) c[p]++} END{for (q in t) print q, t[q], c[q]+0}' \
  $W/on_stderr.txt | sort | tee $W/on_calls.txt
grep -v "^ecgemm: " $W/on_stderr.txt | grep -v "^program" | head -20
timeout 300 python3 -m pytest -q -p no:cacheprovider -rfEs test_jax_gpu.py -k "command_buffer or failing" 2>&1 | tee $W/tests.txt | tail -30
