#!/usr/bin/env bash
# On the GPU machine: install the package (libecgemm built for sm_90a only, to keep the
# build short), run the whole test suite there (GPU tests included), then the probes
# (squares, batches, per-call cost from Python and from C) and bench/'s shape sweep
# with its accuracy section (DEVICE_CHECK_BENCH=0 skips it). $OUT gets pytest.txt, probe.txt
# and the bench folder shapes/
# (at most 8 files come back from the device). Usage: bash tools/device_check.sh [pytest selection]
set -o pipefail
. "$(dirname "$0")/device_install.sh"
mkdir -p "$OUT/shapes"
# A hang (a lost mbarrier phase, say) must not eat the lease: every step has a limit.
timeout "${PYTEST_LIMIT:-300}" python3 -m pytest -q -p no:cacheprovider -rfEs "${@:-tests}" 2>&1 |
  tee "$OUT/pytest.txt" | tail -25
{
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.draw --format=csv
  timeout 120 python3 tools/probe.py --sizes 1024,4096,8192 --overhead \
    --batched "4096,64,64,64;512,256,256,256;256,512,512,512"
  cublas=$(python3 -c "import glob, site; print(sorted(glob.glob(site.getsitepackages()[0] + '/nvidia/**/libcublas.so*', recursive=True))[0])")
  cc -O2 bench/call_overhead.c $(python3 -m ecgemm --cflags --libs) -ldl -o /tmp/call_overhead &&
    /tmp/call_overhead "$cublas"
} 2>&1 | tee "$OUT/probe.txt"
[ "${DEVICE_CHECK_BENCH:-1}" = 0 ] && exit 0
timeout 300 python3 -m bench --profile shapes --sections throughput,accuracy --no-xla \
  --methods ecgemm_tf32tf32,ecgemm_halfhalf,ecgemm_tf32tf32_fused,ecgemm_halfhalf_fused \
  --out "$OUT/shapes" 2> /tmp/bench_log.txt | tail -5
