"""FastDiv (libecgemm/kernels/common/fast_div.cuh: division by a launch's fixed divisor as a multiply-high and a shift,
the strip tile's thread ids) equals the hardware division below 2^31: tests/c/fast_div_check.cu, built with nvcc and
run on the host path (no GPU needed)."""
import pathlib
import shutil
import subprocess

import pytest

REPO = pathlib.Path(__file__).resolve().parent.parent


def test_fast_div_equals_division_below_2_31(tmp_path):
    nvcc = shutil.which("nvcc")
    if nvcc is None:
        pytest.skip("nvcc not found: the check is a CUDA source")
    exe = tmp_path / "fast_div_check"
    subprocess.run([nvcc, "-std=c++17", "-O2", "-I", str(REPO / "libecgemm"), str(REPO / "tests/c/fast_div_check.cu"),
                    "-o", str(exe)], check=True, capture_output=True, text=True)
    run = subprocess.run([str(exe)], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout
    assert run.stdout.strip().endswith("0 mismatches"), run.stdout
