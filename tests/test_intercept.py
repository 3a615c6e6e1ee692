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
from typing import Dict, List, Optional, Tuple

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
        self.root = root
        self.driver = root / "driver"
        self.local_scope = root / "local_scope"
        self.plugin = root / "libplugin.so"
        self.two_majors = root / "two_majors"
        self.late_load = root / "late_load"
        self.threads = root / "threads"
        self.stub_ecgemm = root / "libstub_ecgemm.so"

    def stub(self, major: int) -> Path:
        return self.root / f"libcublas.so.{major}"

    def user(self, major: int) -> Path:
        return self.root / f"libuser{major}.so"


def _compile(*args) -> None:
    proc = subprocess.run([str(a) for a in args], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


@pytest.fixture(scope="module")
def programs(tmp_path_factory) -> Programs:
    import ecgemm

    proc = subprocess.run([sys.executable, "-m", "ecgemm", "--preload"], capture_output=True,
                          text=True, cwd=Path.home())
    if proc.returncode != 0:
        pytest.skip(f"no interception library in this build: {proc.stderr.strip()}")
    cc = shutil.which("cc")
    if cc is None:
        pytest.skip("cc not found: the stub cuBLAS and the driver are C programs")
    root = tmp_path_factory.mktemp("intercept")
    p = Programs(proc.stdout.strip(), root)
    warnings = ["-Wall", "-Wextra", "-Werror"]
    rpath = f"-Wl,-rpath,{root}"
    for major in (12, 13):
        # Versioned symbols, as the real libraries have: a module's references then bind
        # to its own libcublas even when the other major sits in the global scope.
        version_script = root / f"libcublas{major}.map"
        version_script.write_text(f"libcublas.so.{major} {{ global: *; }};\n")
        _compile(cc, *warnings, "-shared", "-fPIC", f"-DSTUB_MAJOR={major}", "-o", p.stub(major),
                 f"-Wl,-soname,libcublas.so.{major}", f"-Wl,--version-script={version_script}",
                 SOURCES / "stub_cublas.c")
        _compile(cc, *warnings, "-shared", "-fPIC", "-o", p.user(major), SOURCES / "user.c",
                 p.stub(major), rpath)
    _compile(cc, *warnings, "-o", p.driver, SOURCES / "driver.c", p.stub(13), rpath, "-ldl")
    _compile(cc, *warnings, "-shared", "-fPIC", "-o", p.plugin, SOURCES / "plugin.c", p.stub(13),
             rpath)
    _compile(cc, *warnings, "-o", p.local_scope, SOURCES / "local_scope.c", "-ldl")
    _compile(cc, *warnings, "-o", p.two_majors, SOURCES / "two_majors.c", "-ldl")
    _compile(cc, *warnings, "-o", p.late_load, SOURCES / "late_load.c", "-ldl")
    _compile(cc, *warnings, "-pthread", "-o", p.threads, SOURCES / "threads.c", p.stub(13), rpath,
             "-ldl")
    _compile(cc, *warnings, "-shared", "-fPIC", "-pthread", f"-I{ecgemm.get_include()}", "-o",
             p.stub_ecgemm, SOURCES / "stub_ecgemm.c")
    return p


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
    assert exported == set(FUNCTIONS) | {"cublasCreate_v2", "cublasDestroy_v2",
                                         "ecgemm_cublas_set_mode", "ecgemm_cublas_get_mode"}


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


# Calls whose math mode, types or compute type ask for something other than ecgemm's FP32:
# cuBLAS gets them as they are, bad arguments included (its own checks then apply).
# Pedantic compute types and math modes prescribe cuBLAS's own FP32 arithmetic.
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
    ("cublasSgemm_v2", f"math={PEDANTIC_MATH}", "pedantic math mode"),
    ("cublasSgemmStridedBatched_64", f"math={PEDANTIC_MATH | DISALLOW_REDUCED_REDUCTION}",
     "pedantic math mode"),
    ("cublasGemmBatchedEx_64", f"math={PEDANTIC_MATH}", "pedantic math mode"),
]
NOT_FP32 += [(function, f"compute={COMPUTE_32F_PEDANTIC}{math}", "pedantic compute type")
             for function in EX_FUNCTIONS for math in ("", f" math={TF32_MATH}")]


@pytest.mark.parametrize("function,setting,reason", NOT_FP32)
def test_calls_not_asking_for_fp32_pass_through_bit_for_bit(programs, function, setting, reason):
    [result], stderr = drive(programs, [f"{function} {setting} m=8 lda=2"])
    assert result == {"status": "0", "reached": "1", "same_args": "1"}
    assert trace_lines(stderr)[0].endswith(f"route=cublas ({reason})")


@pytest.mark.parametrize("function,setting", [
    ("cublasSgemm_v2", ""),
    ("cublasSgemm_v2", f"math={DISALLOW_REDUCED_REDUCTION}"),
    ("cublasGemmEx", ""),
    ("cublasGemmStridedBatchedEx_64", f"math={DISALLOW_REDUCED_REDUCTION}"),
])
def test_fp32_requests_are_taken(programs, function, setting):
    # Taken: cuBLAS's argument checks run here, so a bad lda never reaches the stub.
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


def run_steps(programs: Programs, args: List[object], *, preload: Optional[str],
              **settings: str) -> Tuple[Dict[str, Dict[str, int]], str]:
    """Runs a program that prints `step=<name> key=<int> ...` lines; its steps by name."""
    env = _env(programs, **settings)
    if preload is None:
        del env["LD_PRELOAD"]
    else:
        env["LD_PRELOAD"] = preload
    proc = subprocess.run([str(a) for a in args], capture_output=True, text=True, env=env,
                          timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    steps = {}
    for line in proc.stdout.splitlines():
        fields = dict(field.split("=", 1) for field in line.split())
        name = fields.pop("step")
        assert name not in steps, proc.stdout
        steps[name] = {k: int(v) for k, v in fields.items()}
    return steps, proc.stderr


# two_majors.c: per step, (the stub its calls must reach, whether the preload reads the
# handle's state for it: an FP32 request).
TWO_MAJORS = {
    "create12": (12, False), "create13": (13, False),
    "sgemm12": (12, True), "sgemm13": (13, True),
    "fp32_ex12": (12, True), "fp32_ex13": (13, True),
    "tf32_ex12": (12, False),
    "pedantic_ex12": (12, False), "pedantic_ex13": (13, False),
    "pedantic_math12": (12, True),
    "destroy12": (12, False), "destroy13": (13, False),
    "unseen_create13": (13, False), "unseen_sgemm13": (13, True), "unseen_destroy13": (13, False),
}


def two_majors(programs: Programs, preload: Optional[str]):
    return run_steps(programs, [programs.two_majors, programs.user(12), programs.user(13)],
                     preload=preload)


def test_two_cublas_majors_without_the_preload(programs):
    # The setting itself: each module's calls reach its own cuBLAS (versioned symbols).
    steps, _ = two_majors(programs, preload=None)
    assert set(steps) == set(TWO_MAJORS)
    for step, (major, _) in TWO_MAJORS.items():
        other = 25 - major
        counts = steps[step]
        assert counts["status"] == 0 and counts["foreign"] == 0, (step, counts)
        assert counts[f"calls{major}"] + counts[f"creates{major}"] == 1, (step, counts)
        assert counts[f"calls{other}"] + counts[f"creates{other}"] == 0, (step, counts)


def test_two_cublas_majors_each_handle_served_by_its_own(programs):
    # PyTorch's libcublas.so.13 in the global scope, CuPy's .12 beside it: every handle's
    # pass-through calls, state reads and destroy go to the library that created it.
    steps, stderr = two_majors(programs, preload=programs.preload)
    for step, (major, reads_state) in TWO_MAJORS.items():
        other = 25 - major
        counts = steps[step]
        assert counts["status"] == 0 and counts["foreign"] == 0, (step, counts)
        assert counts[f"calls{major}"] + counts[f"creates{major}"] == 1, (step, counts)
        assert counts[f"calls{other}"] + counts[f"creates{other}"] == 0, (step, counts)
        assert counts[f"state{major}"] == (3 if reads_state else 0), (step, counts)
        assert counts[f"state{other}"] == 0, (step, counts)
    made = [line for line in stderr.splitlines() if ": created by " in line]
    assert [Path(line.split(": created by ")[1].split()[0]).name for line in made] == [
        "libcublas.so.12", "libcublas.so.13"], made  # the unseen handle is not among them
    reasons = [line.rsplit("(", 1)[1] for line in trace_lines(stderr)]
    assert reasons.count("pedantic compute type)") == 2
    assert reasons.count("pedantic math mode)") == 1


def test_failed_lookups_are_retried_once_cublas_is_loaded(programs):
    # Called while no libcublas is loaded, the entry points have nothing to pass the call
    # to; once one is (dlopen, outside the global scope), the same entry points reach it.
    steps, stderr = run_steps(programs, [programs.late_load, programs.stub(13)],
                              preload=programs.preload)
    calls = ("create", "sgemm", "tf32_ex", "destroy")
    assert set(steps) == {f"{call}_{when}" for call in calls for when in ("before", "after")}
    for call in calls:
        assert steps[f"{call}_before"] == {"status": 1, "calls": 0, "creates": 0}, call
        assert steps[f"{call}_after"] == {"status": 0, "calls": int(call != "create"),
                                          "creates": int(call == "create")}, call
    assert "no libcublas is loaded in this process" in stderr


def with_stub_ecgemm(programs: Programs) -> str:
    # Ahead of the library: its calls into ecgemm land in the stub, which makes handles.
    return f"{programs.stub_ecgemm} {programs.preload}"


def test_ecgemm_handles_go_with_their_thread(programs):
    steps, stderr = run_steps(programs, [programs.threads, 0],
                              preload=with_stub_ecgemm(programs))
    assert all(counts["status"] == 0 for counts in steps.values()), steps
    made = {step: (counts["created"], counts["destroyed"]) for step, counts in steps.items()}
    assert made == {"exit": (1, 1),         # the thread's, at its exit
                    "main": (2, 1),         # the main thread's own, for the same cuBLAS handle
                    "destroy": (2, 2),      # cublasDestroy_v2
                    "held": (3, 2),         # a live thread's
                    "held_destroy": (3, 3),  # destroyed by cublasDestroy_v2, not again at exit
                    "race": (3, 3)}
    routes = [line for line in trace_lines(stderr)]
    assert routes and all("route=ecgemm" in line for line in routes), routes
    destroyed = [line.rsplit("(", 1)[1] for line in stderr.splitlines()
                 if "ecgemm handle destroyed" in line]
    assert destroyed == ["thread exit)", "cublasDestroy_v2)", "cublasDestroy_v2)"]


def test_thread_exits_racing_cublas_destroy(programs):
    # Four threads exit while the main thread destroys their cuBLAS handle: each ecgemm
    # handle is destroyed exactly once (the stub aborts on a second destroy or a use
    # after one) and none is left.
    rounds = 200
    steps, _ = run_steps(programs, [programs.threads, rounds], preload=with_stub_ecgemm(programs))
    race = steps["race"]
    assert race == {"status": 0, "created": 3 + 4 * rounds, "destroyed": 3 + 4 * rounds}, race


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
