#!/usr/bin/env bash
# On the GPU machine: the pre-split pass's A/B (tools/split_bench.cu built against BASE, a
# split_operands.cu to compare with, this tree's, and any VARIANT files), then install
# (sm_90a only), the GPU suites, the split kernel's time in one call per mode and layout
# (tools/split_layouts.py), and the whole-call probe against cuBLAS, for this tree and
# (ctypes, ECGEMM_LIBRARY) for libecgemm built with BASE in its place. $OUT gets
# bench_*.txt (workspace hashes and split times; the hash lines of every build must
# agree), pytest.txt, kernel_times.txt, probe.txt and probe_base.txt.
# Usage: bash tools/split_check.sh [BASE [VARIANT.cu ...]]
set -o pipefail
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
base=${1:-} sizes="4096 8192"
shift
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/device.txt"
build() {
  nvcc -std=c++17 -O3 -arch=sm_90a -DECGEMM_HAS_SM90A --expt-relaxed-constexpr -I include \
    -I libecgemm -I libecgemm/kernels -DSPLIT_SRC="\"$(realpath "$1")\"" tools/split_bench.cu -o "$2"
}
builds=(new)
build libecgemm/kernels/split_operands.cu /tmp/sb_new &
if [ -n "$base" ]; then
  build "$base" /tmp/sb_base &
  builds+=(base)
  # libecgemm alone with BASE's split pass, for the whole-call A/B (in the background).
  mkdir -p /tmp/basetree && cp -r CMakeLists.txt cmake include libecgemm /tmp/basetree/ &&
    cp "$base" /tmp/basetree/libecgemm/kernels/split_operands.cu &&
    (cmake -S /tmp/basetree -B /tmp/basebuild -DECGEMM_CUDA_ARCHITECTURES=90a-real \
      -DECGEMM_BUILD_TESTS=OFF -DECGEMM_BUILD_BLAS=OFF -DECGEMM_BUILD_CUBLAS_INTERCEPT=OFF \
      -DECGEMM_BUILD_FORTRAN=OFF && cmake --build /tmp/basebuild -j 8 --target ecgemm) \
      > /tmp/basebuild.txt 2>&1 &
  basebuild=$!
fi
for v in "$@"; do
  b=$(basename "$v" .cu)
  build "$v" "/tmp/sb_$b" &
  builds+=("$b")
done
wait $(jobs -p | grep -v "^${basebuild:-none}$")
for b in "${builds[@]}"; do /tmp/sb_$b $sizes > "$OUT/bench_$b.txt" || echo "sb_$b failed"; done
for b in "${builds[@]}"; do
  echo "$b: $(grep -c ^hash "$OUT/bench_$b.txt") hashes," \
    "$(diff <(grep ^hash "$OUT/bench_new.txt") <(grep ^hash "$OUT/bench_$b.txt") | grep -c '^>') differ from new"
done
grep ^time "$OUT/bench_new.txt" | cut -c6- > /tmp/new.txt
for b in "${builds[@]}"; do [ "$b" = new ] || { echo "== $b | new"; grep ^time "$OUT/bench_$b.txt" |
  cut -c6- | paste -d'|' - /tmp/new.txt; }; done
. "$(dirname "$0")/device_install.sh"
timeout 150 python3 -m pytest -q -p no:cacheprovider -rfEs tests/test_c_abi_gpu.py \
  tests/test_auto_gpu.py tests/test_python_gpu.py tests/test_fused_gpu.py 2>&1 |
  tee "$OUT/pytest.txt" | tail -4
for s in $sizes; do timeout 60 python3 tools/split_layouts.py $s 2>/dev/null; done |
  tee "$OUT/kernel_times.txt"
probe() {
  timeout 60 python3 tools/probe.py --modes tf32tf32,halfhalf,auto \
    --shapes "4096,4096,4096;8192,8192,8192;2048,2048,2048" 2>&1
}
probe | tee "$OUT/probe.txt"
if [ -n "$base" ]; then
  wait "$basebuild" || tail -20 /tmp/basebuild.txt
  ECGEMM_LIBRARY=$(find /tmp/basebuild -name 'libecgemm.so*' -type f | head -1) probe |
    tee "$OUT/probe_base.txt"
fi
