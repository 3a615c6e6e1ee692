"""libecgemm_cublas, the cuBLAS interception library (issue 13), without a GPU.

A stub libcublas.so.13 (tests/c/intercept/stub_cublas.c) stands in for cuBLAS: it
records which GEMM calls reach it and a digest of their arguments. A driver linked
against it runs under ``LD_PRELOAD=$(python -m ecgemm --preload)`` with no GPU visible,
so every FP32 call the library would take falls back to the "real" cuBLAS, which is
what it must do on such a machine. The tests check that calls not asking for FP32 go
through unchanged, that cuBLAS's argument checks return CUBLAS_STATUS_INVALID_VALUE
before anything is called, the environment switches, the verbose log and the Python
switch. tests/test_intercept_gpu.py runs the real thing.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Dict, List, Tuple

import pytest

REPO = Path(__file__).resolve().parents[1]
SOURCES = REPO / "tests" / "c" / "intercept"
INVALID_VALUE = 7
# cuBLAS's documented enum values (tests/c/intercept/fake_cublas.h).
OP_T, OP_CONJG = 1, 3
TENSOR_OP_MATH, PEDANTIC_MATH, TF32_MATH, DISALLOW_REDUCED_REDUCTION = 1, 2, 3, 16
CUDA_R_16F = 2
COMPUTE_32F_PEDANTIC, COMPUTE_32F_FAST_16F, COMPUTE_32F_FAST_TF32 = 69, 74, 77
FUNCTIONS = ("cublasSgemm_v2", "cublasSgemm_v2_64", "cublasSgemmStridedBatched",
             "cublasSgemmStridedBatched_64", "cublasSgemmBatched", "cublasSgemmBatched_64",
             "cublasGemmEx", "cublasGemmEx_64", "cublasGemmStridedBatchedEx",
             "cublasGemmStridedBatchedEx_64", "cublasGemmBatchedEx", "cublasGemmBatchedEx_64")
EX_FUNCTIONS = tuple(f for f in FUNCTIONS if "GemmEx" in f or "BatchedEx" in f)


class Programs:
    def __init__(self, preload: str, root: Path):
        self.preload = preload
        self.driver = root / "driver"
        self.local_scope = root / "local_scope"
        self.plugin = root / "libplugin.so"


def _compile(*args) -> None:
    proc = subprocess.run([str(a) for a in args], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


@pytest.fixture(scope="module")
def programs(tmp_path_factory) -> Programs:
    proc = subprocess.run([sys.executable, "-m", "ecgemm", "--preload"], capture_output=True,
                          text=True, cwd=Path.home())
    if proc.returncode != 0:
        pytest.skip(f"no interception library in this build: {proc.stderr.strip()}")
    cc = shutil.which("cc")
    if cc is None:
        pytest.skip("cc not found: the stub cuBLAS and the driver are C programs")
    root = tmp_path_factory.mktemp("intercept")
    stub = root / "libcublas.so.13"
    warnings = ["-Wall", "-Wextra", "-Werror"]
    _compile(cc, *warnings, "-shared", "-fPIC", "-o", stub, "-Wl,-soname,libcublas.so.13",
             SOURCES / "stub_cublas.c")
    _compile(cc, *warnings, "-o", root / "driver", SOURCES / "driver.c", stub,
             f"-Wl,-rpath,{root}", "-ldl")
    _compile(cc, *warnings, "-shared", "-fPIC", "-o", root / "libplugin.so", SOURCES / "plugin.c",
             stub, f"-Wl,-rpath,{root}")
    _compile(cc, *warnings, "-o", root / "local_scope", SOURCES / "local_scope.c", "-ldl")
    return Programs(proc.stdout.strip(), root)


def _env(programs: Programs, **settings: str) -> Dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("ECGEMM_CUBLAS_")}
    env.update(CUDA_VISIBLE_DEVICES="", LD_PRELOAD=programs.preload,
               ECGEMM_CUBLAS_VERBOSE="1", ECGEMM_CUBLAS_MIN_FLOPS="0")
    env.update(settings)
    return env


def drive(programs: Programs, lines: List[str], **settings: str) -> Tuple[List[Dict[str, str]], str]:
    """Runs the driver on `lines`; one parsed result per line, and its stderr."""
    proc = subprocess.run([str(programs.driver)], input="\n".join(lines) + "\n",
                          capture_output=True, text=True, env=_env(programs, **settings),
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    results = [dict(field.split("=", 1) for field in line.split())
               for line in proc.stdout.splitlines()]
    assert len(results) == len(lines), proc.stdout
    return results, proc.stderr


def trace_lines(stderr: str) -> List[str]:
    return [line for line in stderr.splitlines() if line.startswith("ecgemm_cublas: cublas")]


def test_only_the_cublas_entry_points_and_the_switch_are_exported(programs):
    nm = shutil.which("nm")
    if nm is None:
        pytest.skip("nm not found")
    out = subprocess.run([nm, "-D", "--defined-only", programs.preload], capture_output=True,
                         text=True, check=True).stdout
    exported = {line.split()[-1] for line in out.splitlines() if " T " in line}
    assert exported == set(FUNCTIONS) | {"cublasDestroy_v2", "ecgemm_cublas_set_mode",
                                         "ecgemm_cublas_get_mode"}


@pytest.mark.parametrize("function", FUNCTIONS)
def test_fp32_call_without_a_gpu_goes_to_cublas_unchanged(programs, function):
    [result], stderr = drive(programs, [f"{function} ta={OP_T} m=5 n=3 k=4 lda=4 ldb=4 ldc=5"])
    assert result == {"status": "0", "reached": "1", "same_args": "1"}
    [line] = trace_lines(stderr)
    assert line.startswith(f"ecgemm_cublas: {function} TN m=5 n=3 k=4 batch=")
    assert "route=cublas (ECGEMM_STATUS_" in line, line


# (arguments, netlib position of the first bad one), following cuBLAS's documented checks.
BAD_ARGUMENTS = [
    ("ta=7", 1), (f"tb={OP_CONJG}", 2), ("m=-1", 3), ("n=-1", 4), ("k=-1", 5), ("alpha=0", 6),
    ("m=8 lda=4", 8), (f"ta={OP_T} k=8 lda=4", 8), ("m=0 lda=0", 8), ("k=8 ldb=4", 10),
    (f"tb={OP_T} n=8 ldb=4", 10), ("beta=0", 11), ("m=8 lda=8 ldc=4", 13), ("m=0 lda=1 ldc=0", 13),
    ("m=-1 lda=0", 3),  # the first bad argument is the one reported
]


@pytest.mark.parametrize("function", ["cublasSgemm_v2", "cublasSgemmStridedBatched_64",
                                      "cublasSgemmBatched", "cublasGemmEx_64",
                                      "cublasGemmBatchedEx"])
@pytest.mark.parametrize("arguments,position", BAD_ARGUMENTS)
def test_bad_arguments_return_invalid_value_before_anything_runs(programs, function, arguments,
                                                                 position):
    [result], stderr = drive(programs, [f"{function} {arguments}"])
    assert result["status"] == str(INVALID_VALUE) and result["reached"] == "0", result
    [line] = trace_lines(stderr)
    assert line.endswith(f"route=invalid (argument {position})"), line


@pytest.mark.parametrize("function", ["cublasSgemmStridedBatched", "cublasGemmBatchedEx_64"])
def test_negative_batch_count_is_invalid(programs, function):
    [result], stderr = drive(programs, [f"{function} batch=-1"])
    assert result["status"] == str(INVALID_VALUE) and result["reached"] == "0"
    assert trace_lines(stderr)[0].endswith("route=invalid (argument 17)")


def test_valid_edge_shapes_are_not_refused(programs):
    # ld >= max(1, rows): rows = 0 still allows ld = 1; op(A) = A^T needs lda >= k, not m.
    lines = ["cublasSgemm_v2 m=0 lda=1 ldc=1", f"cublasSgemm_v2 ta={OP_T} m=8 k=4 lda=4 ldc=8",
             "cublasSgemmStridedBatched batch=0", "cublasSgemm_v2 k=0 ldb=1"]
    results, _ = drive(programs, lines)
    assert all(r == {"status": "0", "reached": "1", "same_args": "1"} for r in results), results


# Calls whose math mode, types or compute type ask for something other than FP32: cuBLAS
# gets them as they are, bad arguments included (its own checks then apply).
NOT_FP32 = [
    ("cublasSgemm_v2", f"math={TF32_MATH}", "math mode allows reduced precision"),
    ("cublasSgemmBatched_64", f"math={TENSOR_OP_MATH}", "math mode allows reduced precision"),
    ("cublasGemmEx", f"math={TF32_MATH}", "math mode allows reduced precision"),
    ("cublasGemmEx", f"at={CUDA_R_16F} bt={CUDA_R_16F}", "A, B, C are not all CUDA_R_32F"),
    ("cublasGemmStridedBatchedEx", f"ct={CUDA_R_16F}", "A, B, C are not all CUDA_R_32F"),
    ("cublasGemmBatchedEx", f"compute={COMPUTE_32F_FAST_TF32}",
     "compute type asks for other than FP32"),
    ("cublasGemmEx_64", f"compute={COMPUTE_32F_FAST_16F}", "compute type asks for other than FP32"),
    ("cublasGemmEx", "algo=12345", "unknown algo"),
]


@pytest.mark.parametrize("function,setting,reason", NOT_FP32)
def test_calls_not_asking_for_fp32_pass_through_bit_for_bit(programs, function, setting, reason):
    [result], stderr = drive(programs, [f"{function} {setting} m=8 lda=2"])
    assert result == {"status": "0", "reached": "1", "same_args": "1"}
    assert trace_lines(stderr)[0].endswith(f"route=cublas ({reason})")


@pytest.mark.parametrize("function,setting", [
    ("cublasSgemm_v2", f"math={PEDANTIC_MATH}"),
    ("cublasSgemm_v2", f"math={DISALLOW_REDUCED_REDUCTION}"),
    # A pedantic compute type asks for FP32 whatever the math mode says.
    ("cublasGemmEx", f"compute={COMPUTE_32F_PEDANTIC} math={TF32_MATH}"),
])
def test_fp32_requests_are_taken(programs, function, setting):
    [result], _ = drive(programs, [f"{function} {setting} m=8 lda=2"])
    assert result["status"] == str(INVALID_VALUE) and result["reached"] == "0"


def test_mode_off_sends_everything_to_cublas(programs):
    results, stderr = drive(programs, ["cublasSgemm_v2 lda=1", "cublasGemmEx"],
                            ECGEMM_CUBLAS_MODE="off")
    assert all(r == {"status": "0", "reached": "1", "same_args": "1"} for r in results)
    assert all(line.endswith("route=cublas (interception off)") for line in trace_lines(stderr))


def test_unknown_mode_is_reported_and_turns_interception_off(programs):
    [result], stderr = drive(programs, ["cublasSgemm_v2 lda=1"], ECGEMM_CUBLAS_MODE="tf32x3")
    assert "unknown ECGEMM_CUBLAS_MODE='tf32x3'" in stderr and "interception is off" in stderr
    assert result["reached"] == "1"


def test_min_flops_sends_small_calls_to_cublas(programs):
    # 2*4*4*4 = 128 flops; batch 2 doubles it for the batched forms.
    results, stderr = drive(programs, ["cublasSgemm_v2", "cublasSgemmStridedBatched",
                                       "cublasSgemm_v2 lda=1"], ECGEMM_CUBLAS_MIN_FLOPS="200")
    assert [r["reached"] for r in results] == ["1", "1", "0"]  # bad arguments are still refused
    lines = trace_lines(stderr)
    assert lines[0].endswith("route=cublas (below ECGEMM_CUBLAS_MIN_FLOPS)")
    assert "below" not in lines[1] and "route=cublas (ECGEMM_STATUS_" in lines[1], lines[1]


def test_bad_min_flops_is_reported(programs):
    _, stderr = drive(programs, ["cublasSgemm_v2"], ECGEMM_CUBLAS_MIN_FLOPS="lots")
    assert "ignoring ECGEMM_CUBLAS_MIN_FLOPS='lots'" in stderr


def test_quiet_unless_verbose(programs):
    _, stderr = drive(programs, ["cublasSgemm_v2", "cublasSgemm_v2 lda=1"],
                      ECGEMM_CUBLAS_VERBOSE="0")
    assert "ecgemm_cublas" not in stderr


def test_null_handle_and_destroy_go_to_cublas(programs):
    results, _ = drive(programs, ["cublasSgemm_v2 handle=0", "destroy", "cublasSgemm_v2"])
    assert results[0] == {"status": "0", "reached": "1", "same_args": "1"}
    assert results[1] == {"status": "0", "reached": "1"}
    assert results[2]["reached"] == "1"  # a new handle after the destroy works


def test_control_functions(programs):
    results, _ = drive(programs, ["get_mode", "set_mode off", "get_mode", "set_mode TF32X3",
                                  "get_mode", "set_mode AUTO", "get_mode", "set_mode halfhalf",
                                  "get_mode"],
                       ECGEMM_CUBLAS_MODE="halfhalf")
    # Names are case-insensitive; "auto" is accepted by name (whether the loaded libecgemm has
    # ECGEMM_MODE_AUTO is asked at the first call that would use it).
    assert results == [{"mode": "halfhalf"}, {"rc": "0"}, {"mode": "off"}, {"rc": "-1"},
                       {"mode": "off"}, {"rc": "0"}, {"mode": "auto"}, {"rc": "0"},
                       {"mode": "halfhalf"}]


def test_cublas_loaded_in_a_local_scope_is_still_found(programs):
    # CuPy's case: libcublas is a dependency of a module opened RTLD_LOCAL.
    proc = subprocess.run([str(programs.local_scope), str(programs.plugin)], capture_output=True,
                          text=True, env=_env(programs), timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["status=0", "reached=1"], proc.stderr


PYTHON_SWITCH = """
import ctypes, ecgemm
get = ctypes.CDLL(None).ecgemm_cublas_get_mode
get.restype = ctypes.c_char_p
assert get() == b"tf32tf32", get()
with ecgemm.intercept_cublas(mode="halfhalf") as previous:
    assert previous == "tf32tf32" and get() == b"halfhalf"
assert get() == b"tf32tf32"
try:
    with ecgemm.intercept_cublas(mode="off"):
        assert get() == b"off"
        raise KeyError("inside")
except KeyError:
    pass
assert get() == b"tf32tf32"
try:
    with ecgemm.intercept_cublas(mode="fp16"):
        pass
except ValueError as error:
    assert "tf32tf32, halfhalf, auto, off" in str(error)
else:
    raise AssertionError("fp16 accepted")
print("ok")
"""


def test_python_switch_in_a_preloaded_process(programs):
    proc = subprocess.run([sys.executable, "-c", PYTHON_SWITCH], capture_output=True, text=True,
                          env=_env(programs), cwd=Path.home(), timeout=120)
    assert proc.returncode == 0 and proc.stdout.strip() == "ok", proc.stderr


def test_python_switch_without_the_preload_says_how_to_get_it():
    import ecgemm
    from ecgemm._intercept import CublasInterceptionNotLoaded

    if "libecgemm_cublas" in os.environ.get("LD_PRELOAD", ""):
        pytest.skip("this test process itself runs under the preload")
    with pytest.raises(CublasInterceptionNotLoaded, match=r"LD_PRELOAD=\$\(python -m ecgemm"):
        with ecgemm.intercept_cublas():
            pass
    assert issubclass(CublasInterceptionNotLoaded, RuntimeError)
