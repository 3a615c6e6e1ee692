# Sourced by the tools/*_check.sh scripts on the GPU machine: $OUT ready, Python output
# unbuffered, and the package installed with libecgemm built for sm_90a only (a short
# build; ECGEMM_ARCHS=90-real builds the sm_80-family kernels alone, which an H200 then
# runs as an Ampere/Ada GPU would); on a failed build, its log's end and exit 1.
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
export PYTHONUNBUFFERED=1
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES="${ECGEMM_ARCHS:-90a-real}" . > /tmp/build.txt 2>&1 ||
  { tail -50 /tmp/build.txt; exit 1; }
