#!/usr/bin/env bash
# Build GEMMul8 (RIKEN-RCCS/GEMMul8, Ozaki scheme II on INT8 Tensor Cores) as bench's optional peer:
# one shared object, libgemmul8_ecgemm.so = GEMMul8's src/gemmul8.cu + tools/gemmul8_shim.cu (a C ABI for
# ctypes), for sm_90a (H100/H200), against the cuBLAS of the nvidia-cublas wheel.
#
#   tools/build_gemmul8.sh SRC [OUT]      (OUT defaults to .peers/gemmul8, which .gitignore keeps out of git)
#
# SRC is GEMMul8's source: a bare git dir (what the `fetch` tool leaves under /work/.mirror) or a checkout.
# Nothing of it is committed. GEMMul8's hook.cu (its cuBLAS LD_PRELOAD interposer) is left out on purpose:
# in the bench process it would catch torch's own SGEMM, the denominator of every ratio.
# The library needs libcublas.so.13 and libcublasLt.so.13 at load time; bench/gemmul8_peer.py loads them from
# torch's nvidia wheel first. cudart is linked statically.
# gemmul8.cu takes ~15 min on 2 cores: its object is kept in BUILD (default build/gemmul8, ignored by git) and
# reused while the commit, ARCH and nvcc are the same.
# Env: NVCC (default nvcc), PYTHON (default /work/venv/bin/python, to find the wheel), ARCH (default 90a), BUILD.
set -euo pipefail
SRC=${1:?usage: tools/build_gemmul8.sh GEMMUL8_SRC [OUT_DIR]}
REPO=$(cd "$(dirname "$0")/.." && pwd)
OUT=${2:-$REPO/.peers/gemmul8}
NVCC=${NVCC:-nvcc}
PYTHON=${PYTHON:-/work/venv/bin/python}
ARCH=${ARCH:-90a}
BUILD=${BUILD:-$REPO/build/gemmul8}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# The source tree and the commit it came from (recorded beside the library, reported by bench).
if git --git-dir="$SRC" rev-parse --verify -q HEAD >/dev/null 2>&1 && [ ! -d "$SRC/GEMMul8" ]; then
  COMMIT=$(git --git-dir="$SRC" rev-parse HEAD)
  mkdir "$TMP/src" && git --git-dir="$SRC" archive HEAD | tar -x -C "$TMP/src"
  TREE=$TMP/src
else
  TREE=$SRC
  COMMIT=$(git -C "$SRC" rev-parse HEAD 2>/dev/null || echo "${GEMMUL8_COMMIT:-unknown}")
fi
G=$TREE/GEMMul8
[ -f "$G/src/gemmul8.cu" ] && [ -f "$G/include/gemmul8.hpp" ] || { echo "no GEMMul8/src/gemmul8.cu under $SRC" >&2; exit 2; }

# cuBLAS from the wheel (nvidia/cu13 in the CUDA 13 wheels, nvidia/cublas in older ones). The toolkit here has
# no cuBLAS, and the wheel's include dir also holds runtime headers of another patch level than nvcc's: link
# only the cuBLAS headers into a directory of their own.
CUBLAS=$("$PYTHON" - <<'EOF'
import importlib.util, pathlib
for sub in ("cu13", "cublas"):
    spec = importlib.util.find_spec("nvidia." + sub)
    if spec and spec.submodule_search_locations:
        d = pathlib.Path(list(spec.submodule_search_locations)[0])
        if list((d / "lib").glob("libcublas.so.*")):
            print(d)
            break
EOF
)
[ -n "$CUBLAS" ] || { echo "no nvidia-cublas wheel under $PYTHON (pip install nvidia-cublas)" >&2; exit 2; }
mkdir "$TMP/inc" "$TMP/lib"
ln -s "$CUBLAS"/include/cublas*.h "$TMP/inc/"
# the wheel has only versioned names; the linker records their SONAMEs (libcublas.so.13, libcublasLt.so.13)
ln -s "$(ls "$CUBLAS"/lib/libcublas.so.* | head -1)" "$TMP/lib/libcublas.so"
ln -s "$(ls "$CUBLAS"/lib/libcublasLt.so.* | head -1)" "$TMP/lib/libcublasLt.so"

mkdir -p "$OUT" "$BUILD"
LIB=$OUT/libgemmul8_ecgemm.so
# GEMMul8's own flags (its Makefile): C++20, -O3, warning 177 (unused variable) silenced.
FLAGS=(-std=c++20 -O3 -diag-suppress 177 -Xcompiler -fPIC -gencode "arch=compute_$ARCH,code=sm_$ARCH"
       -I "$TMP/inc" -I "$G/include")
echo "GEMMul8 $COMMIT, cuBLAS headers from $CUBLAS, $($NVCC --version | tail -1)"
"$NVCC" "${FLAGS[@]}" -c "$REPO/tools/gemmul8_shim.cu" -o "$BUILD/shim.o"   # first: seconds, where the long one takes minutes
STAMP="$COMMIT sm_$ARCH $($NVCC --version | tail -1)"
if [ -f "$BUILD/gemmul8.o" ] && [ "$(cat "$BUILD/gemmul8.stamp" 2>/dev/null)" = "$STAMP" ]; then
  echo "reusing $BUILD/gemmul8.o"
else
  rm -f "$BUILD/gemmul8.stamp"
  "$NVCC" "${FLAGS[@]}" -c "$G/src/gemmul8.cu" -o "$BUILD/gemmul8.o"
  printf '%s\n' "$STAMP" > "$BUILD/gemmul8.stamp"
fi
"$NVCC" -shared -gencode "arch=compute_$ARCH,code=sm_$ARCH" -o "$LIB" "$BUILD/gemmul8.o" "$BUILD/shim.o" \
  -L "$TMP/lib" -lcublas -lcublasLt
strip --strip-unneeded "$LIB"
printf '%s\n' "$COMMIT" > "$OUT/SOURCE_COMMIT"
ls -l "$LIB"
nm -D --defined-only "$LIB" | grep ecgemm_gemmul8_
