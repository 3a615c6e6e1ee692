#!/usr/bin/env bash
# Device call 5 (README.md here): tools/device.py random-ab, checked on the GPU on a small thin sample, .baseline
# holding fd0be78's sources (the library this tree builds too, so nothing should move).
python3 tools/device.py random-ab --sample="--seed 26 --max-width 4 --count 40 --batched-count 10 --max-minutes 0.3" \
  --order base,new --timeout 40 --build-timeout 150
