#!/usr/bin/env bash
# On the GPU machine: issue 9's big-square figures and their ceiling. Install (sm_90a);
# bench at 8192^3 and 16384^3 with ecgemm, XLA's TF32x3 preset and one cuBLAS TF32 / FP16
# product (throughput + energy: clocks and power per method); tools/square_ceiling.py
# (per-kernel times, SM clock, fraction of the three-product peak). $OUT/squares.tgz:
# squares/ (bench), square_ceiling.txt/.json.
set -o pipefail
. "$(dirname "$0")/device_install.sh"
export PYTHONPATH=$PWD
mkdir -p "$OUT/squares"
pack() { tar czf "$OUT/squares.tgz" -C "$OUT" --exclude squares.tgz . ; }
trap pack EXIT
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit,temperature.gpu --format=csv
timeout 330 python3 -m bench --profile quick --sections throughput,energy --no-plots \
  --methods ecgemm_tf32tf32,ecgemm_halfhalf,xla_tf32x3,cublas_tf32,cublas_fp16 \
  --shapes 8192x8192x8192,16384x16384x16384 --out "$OUT/squares" 2> "$OUT/squares/log.txt" |
  grep -E "×|TFLOP|Headline|- ecgemm" | head -40
timeout 150 python3 tools/square_ceiling.py --out "$OUT" 2>&1 | grep -v -i warn
