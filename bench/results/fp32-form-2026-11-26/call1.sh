#!/usr/bin/env bash
# Device call 1 (README.md here): fused_mma's FP32 form with k outer and every fragment's outputs in registers
# (fp32_form_stage), against main's form (this tree with form.patch reversed, built beside it): the FP32 form's GPU tests; ab.py
# (gemv-2026-11-25) over shapes.txt (the held-out sample's 2-D shapes with k <= 32) with the form pinned, fused_mma's
# 32 tile (tf32tf32's products) pinned and the planner's route, once per tree, one tree after the other.
set -o pipefail
export PYTHONUNBUFFERED=1
R=$PWD; D=$R/bench/results/fp32-form-2026-11-26
AB=$R/bench/results/gemv-2026-11-25/ab.py
W=/tmp/f1; rm -rf $W /tmp/oldsrc /tmp/old; mkdir -p $W /tmp/oldsrc
trap 'tar czf $OUT/call1.tgz -C $W .' EXIT
tar -c --exclude=./build --exclude=./.git . | tar -x -C /tmp/oldsrc && (cd /tmp/oldsrc && patch -R -p1 < $D/form.patch > /dev/null) || exit 1
python3 -m pip install --no-deps --no-build-isolation --no-index \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bnew . > $W/build.txt 2>&1 &
(cd /tmp/oldsrc && python3 -m pip install --no-deps --no-build-isolation --no-index --target /tmp/old \
  -C cmake.define.ECGEMM_CUDA_ARCHITECTURES=90a-real -C build-dir=/tmp/bold . > $W/build_old.txt 2>&1) &
wait
echo "builds done"; tail -n 1 $W/build.txt $W/build_old.txt
timeout 150 python3 -m pytest -q -p no:cacheprovider -rfEs -n 12 tests/test_fused_mma_fp32_gpu.py tests/test_fused_mma_gpu.py \
  tests/test_planner.py tests/test_planner_gpu.py > $W/tests.txt 2>&1
echo "tests exit $?"; tail -n 1 $W/tests.txt; grep -E "^FAILED|^ERROR" $W/tests.txt | head -12
(cd /tmp && timeout 150 python3 $AB $D/shapes.txt $W/ab_new.json fused_mma/fp32 fused_mma:32 - > $W/ab_new.txt 2> $W/ab_new.err)
echo "ab new exit $?"; tail -n 2 $W/ab_new.err
(cd /tmp && PYTHONPATH=/tmp/old timeout 150 python3 $AB $D/shapes.txt $W/ab_old.json fused_mma/fp32 fused_mma:32 - > $W/ab_old.txt 2> $W/ab_old.err)
echo "ab old exit $?"; tail -n 2 $W/ab_old.err
python3 -c "import sys; sys.path.insert(0, '/tmp/old'); import ecgemm; print('old from', ecgemm.__file__)" >> $W/ab_old.txt
