#!/usr/bin/env bash
# Device call 1 (issue 26): GEMMul8 (Ozaki scheme II on INT8 Tensor Cores) as a peer beside cuBLAS, ecgemm,
# Triton and XLA: same seeded inputs, same process as cuBLAS SGEMM (XLA: its worker, bit-identical inputs).
# Needs carry [".peers/xz"]: .peers/xz/gemmul8.tar.xz, the library tools/build_gemmul8.sh built (sm_90a, cuBLAS 13,
# GEMMul8 71296f9) as `tar cJf .peers/xz/gemmul8.tar.xz -C .peers gemmul8`, compressed for the 64 MiB limit.
# 1. build ecgemm; 2. smoke: the peer against FP64 on every operand layout (37x53x29) and at 1024^3, fast and
# accurate x 6..9 moduli, with GEMMul8's phase times; 3. bench's throughput section at 8192^3 and 16384^3 for
# cuBLAS SGEMM/TF32, ecgemm tf32tf32/halfhalf/auto, Triton tf32x3, XLA's two presets and GEMMul8's 8 settings,
# with residual_vs_time.png. Estimate: build ~1 min, smoke ~20 s, bench ~2 min (in-process ~1.3 min, of which
# GEMMul8 ~25 s; XLA ~35 s with its start); ~3.5 min in all, the timeouts stop it before 6 min past the build.
set -o pipefail
mkdir -p .peers && tar xJf .peers/xz/gemmul8.tar.xz -C .peers  # carried compressed (the 64 MiB limit)
export PYTHONUNBUFFERED=1
W=/tmp/g1; rm -rf $W; mkdir -p $W
trap 'tar czf $OUT/call1.tgz -C $W .' EXIT
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1
echo "build exit $?"
{ ls -l .peers/gemmul8; cat .peers/gemmul8/SOURCE_COMMIT
  nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit --format=csv; } 2>&1 | tee $W/peer.txt
timeout 60 python3 -m bench.gemmul8_peer 1024 > $W/smoke.txt 2>&1
echo "smoke exit $?"; cat $W/smoke.txt
timeout 270 python3 -m bench --shapes 8192x8192x8192,16384x16384x16384 --sections throughput --max-minutes 3.5 \
  --methods cublas_sgemm,cublas_tf32,ecgemm_tf32tf32,ecgemm_halfhalf,ecgemm_auto,triton_tf32x3,xla,gemmul8 \
  --out $W/bench > $W/bench.log 2>&1
echo "bench exit $?"; grep -E "^\| " $W/bench/table.md | cut -d'|' -f2-8
sed -n '/^## Flags/,$p' $W/bench/table.md; ls $W/bench
