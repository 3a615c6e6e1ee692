#!/usr/bin/env bash
# Device call 1: AUTO's rows too wide for FP32 once scaled run unscaled (issue 26's
# choose_scale underflow: [2^100, 2^-66] . [2^-100, 2^66] gave 0). The AUTO tests, and
# whether jax's default XLA flags record ecgemm.jax's calls into command buffers.
set -o pipefail
W=/tmp/aw1; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call1.tgz -C $W .' EXIT
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $W/gpu.txt
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"
(cd tests && timeout 300 python3 -m pytest -q -p no:cacheprovider -rfEs -n 4 test_auto_gpu.py \
  test_numerics_properties.py 2>&1) | tee $W/tests.txt | tail -4
cd tests && ECGEMM_VERBOSE=1 timeout 200 python3 jax_command_buffer_check.py /tmp/default.npz 2> $W/default_stderr.txt
awk '/^program /{p=$2} /^ecgemm: /{t[p]++; if (/ captured /) c[p]++} END{for (q in t) print q, t[q], c[q]+0}' \
  $W/default_stderr.txt | sort > $W/default_calls.txt
echo "default XLA flags, captured calls: $(grep -c ' captured ' $W/default_stderr.txt) of $(grep -c '^ecgemm: ' $W/default_stderr.txt)"
