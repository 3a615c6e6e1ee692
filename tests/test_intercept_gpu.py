"""libecgemm_cublas on a GPU (issue 13): the real cuBLAS of the nvidia-cublas wheel
under ``LD_PRELOAD=$(python -m ecgemm --preload)``.

- tests/c/intercept/gpu_check.c calls every intercepted entry point and compares each
  result with real cuBLAS FP32 (interception off in the same process) and with the
  same product called on ecgemm directly; also beta = 0 over a NaN C, device pointer
  mode, TF32 and pedantic requests passed through bit for bit, a bad argument, CUDA
  graph capture, two threads, and cublasDestroy_v2.
- tests/c/intercept/device_check.c: a handle created on device 1 used while device 0
  is current (from its thread and a new one): the bits of ecgemm on device 1.
- tests/intercept_torch_check.py runs torch.mm, torch.bmm, torch.nn.Linear and
  cupy.matmul (float32, TF32 off) with interception off and on; the verbose log must
  show ecgemm answering each one, and the residual against float64 must stay within
  max(2 x cuBLAS SGEMM's, 2^-20).
- tests/intercept_streams_check.py runs the same kinds of products (forward and
  backward) on 2, 3 and 4 streams of one thread at once, in each mode: every result
  bit-identical to the same call made alone.
- PyTorch's and CuPy's cuBLAS in one process, where they are two majors.

PyTorch's addmm (Linear with a bias) goes to cublasLt unless DISABLE_ADDMM_CUDA_LT=1;
the library does not intercept cublasLt (cublas/README.md), so the test sets it.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Dict, List, Optional

import pytest

pytestmark = pytest.mark.gpu

REPO = Path(__file__).resolve().parents[1]
FUNCTIONS = ("cublasSgemm_v2", "cublasSgemm_v2_64", "cublasSgemmStridedBatched",
             "cublasSgemmStridedBatched_64", "cublasSgemmBatched", "cublasSgemmBatched_64",
             "cublasGemmEx", "cublasGemmEx_64", "cublasGemmStridedBatchedEx",
             "cublasGemmStridedBatchedEx_64", "cublasGemmBatchedEx", "cublasGemmBatchedEx_64")
SKIPPED = 77


@pytest.fixture(scope="module")
def preload() -> str:
    proc = subprocess.run([sys.executable, "-m", "ecgemm", "--preload"], capture_output=True,
                          text=True, cwd=Path.home())
    if proc.returncode != 0:
        pytest.skip(f"no interception library in this build: {proc.stderr.strip()}")
    return proc.stdout.strip()


def _first(paths) -> Optional[Path]:
    return next((p for p in paths if p.exists()), None)


def cublas_wheel() -> Optional[Path]:
    """nvidia-cublas's folder holding include/cublas_v2.h and lib/libcublas.so.*."""
    try:
        import nvidia
    except ImportError:
        return None
    return _first(Path(p) / sub for p in nvidia.__path__ for sub in ("cu13", "cublas", "cu12")
                  if (Path(p) / sub / "include" / "cublas_v2.h").exists())


def cuda_toolkit() -> Optional[Path]:
    nvcc = shutil.which("nvcc")
    if nvcc is None:
        return None
    root = Path(nvcc).resolve().parents[1]
    return root if (root / "include" / "cuda_runtime.h").exists() else None


def env(preload: str, **extra: str) -> Dict[str, str]:
    e = {k: v for k, v in os.environ.items() if not k.startswith("ECGEMM_CUBLAS_")}
    e.update(LD_PRELOAD=preload, ECGEMM_CUBLAS_VERBOSE="1", ECGEMM_CUBLAS_MIN_FLOPS="0",
             PYTHONUNBUFFERED="1")
    e.update(extra)
    return e


def routes(stderr: str) -> List[str]:
    return [line for line in stderr.splitlines() if line.startswith("ecgemm_cublas: cublas")]


def build_c_check(source: str, out_dir: Path) -> Path:
    """Compiles tests/c/intercept/<source>.c against the real cuBLAS, cudart and ecgemm."""
    import ecgemm

    wheel, toolkit, cc = cublas_wheel(), cuda_toolkit(), shutil.which("cc")
    if wheel is None or toolkit is None or cc is None:
        pytest.skip(f"needs the nvidia-cublas wheel ({wheel}), the CUDA toolkit ({toolkit}) "
                    f"and cc ({cc})")
    cublas = _first(sorted((wheel / "lib").glob("libcublas.so.*")))
    cudart_dir = _first([toolkit / "lib64", toolkit / "targets" / "x86_64-linux" / "lib"])
    exe = out_dir / source
    libdir = ecgemm.get_library_dir()
    proc = subprocess.run(
        [cc, "-std=gnu99", "-O2", "-Wall", "-Wextra", "-o", str(exe),
         str(REPO / "tests" / "c" / "intercept" / f"{source}.c"),
         f"-I{wheel / 'include'}", f"-I{toolkit / 'include'}", f"-I{ecgemm.get_include()}",
         str(cublas), f"-L{libdir}", "-lecgemm", f"-L{cudart_dir}", "-lcudart",
         f"-Wl,-rpath,{wheel / 'lib'}:{libdir}:{cudart_dir}", "-ldl", "-lpthread", "-lm"],
        capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    return exe


@pytest.fixture(scope="module")
def gpu_check(tmp_path_factory) -> Path:
    return build_c_check("gpu_check", tmp_path_factory.mktemp("intercept_gpu"))


@pytest.fixture(scope="module")
def device_check(tmp_path_factory) -> Path:
    return build_c_check("device_check", tmp_path_factory.mktemp("intercept_device"))


def test_every_entry_point_against_cublas_and_ecgemm(preload, gpu_check):
    proc = subprocess.run([str(gpu_check)], capture_output=True, text=True, timeout=600,
                          env=env(preload))
    if proc.returncode == SKIPPED:
        pytest.skip(proc.stdout.strip())
    print(proc.stdout)
    assert proc.returncode == 0 and "\n0 failed" in proc.stdout, proc.stdout + proc.stderr[-4000:]
    lines = routes(proc.stderr)
    for function in FUNCTIONS:
        assert any(line.startswith(f"ecgemm_cublas: {function} ") and "route=ecgemm" in line
                   for line in lines), f"{function} never reached ecgemm"
    assert any("route=cublas (math mode allows reduced precision)" in line for line in lines)
    assert any("route=cublas (compute type asks for other than FP32)" in line for line in lines)
    assert any("route=cublas (pedantic compute type)" in line for line in lines)
    assert any("route=cublas (pedantic math mode)" in line for line in lines)
    assert any("route=invalid (argument 8)" in line for line in lines)
    # The 1024^3 product captured into a graph first: ecgemm either runs it (its workspace
    # was large enough) or declines without breaking the capture, and cuBLAS runs it.
    captured = [line for line in lines if " m=1024 n=1024 k=1024 " in line]
    print("\n".join(captured))
    assert captured and all("route=ecgemm" in line or "(ECGEMM_STATUS_NOT_SUPPORTED)" in line
                            for line in captured), captured


def test_off_and_min_flops_leave_every_call_to_cublas(preload, gpu_check):
    proc = subprocess.run([str(gpu_check)], capture_output=True, text=True, timeout=600,
                          env=env(preload, ECGEMM_CUBLAS_MIN_FLOPS="1e15"))
    if proc.returncode == SKIPPED:
        pytest.skip(proc.stdout.strip())
    assert "failed" in proc.stdout, proc.stdout + proc.stderr[-4000:]
    assert not any("route=ecgemm" in line for line in routes(proc.stderr))


def sections(stderr: str) -> Dict[str, List[str]]:
    """The library's route lines (one per GEMM call) under each `=== <marker>` line."""
    found: Dict[str, List[str]] = {}
    current = None
    for line in stderr.splitlines():
        if line.startswith("=== "):
            current = line[4:]
            found[current] = []
        elif current is not None and line.startswith("ecgemm_cublas: ") and " route=" in line:
            found[current].append(line)
    return found


def test_pytorch_and_cupy_products_run_on_ecgemm(preload):
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("PyTorch sees no GPU")
    proc = subprocess.run([sys.executable, str(REPO / "tests" / "intercept_torch_check.py")],
                          capture_output=True, text=True, timeout=600, cwd=Path.home(),
                          env=env(preload, DISABLE_ADDMM_CUDA_LT="1"))
    assert proc.returncode == 0, proc.stderr[-6000:]
    results = json.loads(proc.stdout.strip().splitlines()[-1])
    logged = sections(proc.stderr)
    print("\n".join(f"{case}: {lines}" for case, lines in logged.items()))
    expected = {"torch.mm", "torch.mm positive", "torch.mm transposed", "torch.bmm",
                "torch.nn.Linear", "torch.nn.Linear no bias"}
    assert expected <= set(results), results
    for case, residuals in results.items():
        assert logged[f"{case} on"] and all("route=ecgemm" in line
                                            for line in logged[f"{case} on"]), (case, logged)
        assert all("interception off" in line for line in logged[f"{case} off"]), case
        bound = max(2 * residuals["off"], 2.0 ** -20)
        assert residuals["on"] <= bound, (case, residuals)
    print(json.dumps(results, indent=1))


def test_python_switch_changes_the_route(preload):
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("PyTorch sees no GPU")
    script = ("import torch, ecgemm, sys\n"
              "torch.backends.cuda.matmul.allow_tf32 = False\n"
              "a = torch.rand(512, 512, device='cuda')\n"
              "with ecgemm.intercept_cublas(mode='halfhalf'):\n"
              "    torch.mm(a, a); torch.cuda.synchronize()\n"
              "torch.mm(a, a); torch.cuda.synchronize()\n")
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=300, cwd=Path.home(), env=env(preload))
    assert proc.returncode == 0, proc.stderr[-4000:]
    modes = [re.search(r"route=ecgemm \((\w+)\)", line).group(1)
             for line in routes(proc.stderr) if "route=ecgemm" in line]
    assert modes[-2:] == ["halfhalf", "tf32tf32"], routes(proc.stderr)


def test_handle_of_device_1_used_while_device_0_is_current(preload, device_check):
    proc = subprocess.run([str(device_check)], capture_output=True, text=True, timeout=300,
                          env=env(preload))
    if proc.returncode == SKIPPED:
        pytest.skip(proc.stdout.strip())
    print(proc.stdout)
    assert proc.returncode == 0 and "\n0 failed" in proc.stdout, proc.stdout + proc.stderr[-4000:]
    made = re.findall(r"ecgemm handle made for thread \d+ on device (\d+)", proc.stderr)
    assert made == ["1", "1"], proc.stderr[-4000:]  # the main thread's, the new thread's


def torch_with_gpu():
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("PyTorch sees no GPU")
    return torch


@pytest.mark.parametrize("mode", ["tf32tf32", "halfhalf", "auto"])
def test_products_on_several_streams_match_the_same_call_alone(preload, mode):
    torch_with_gpu()
    proc = subprocess.run([sys.executable, str(REPO / "tests" / "intercept_streams_check.py")],
                          capture_output=True, text=True, timeout=600, cwd=Path.home(),
                          env=env(preload, DISABLE_ADDMM_CUDA_LT="1", ECGEMM_CUBLAS_MODE=mode))
    assert proc.returncode == 0, proc.stderr[-6000:]
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    print(json.dumps(result, indent=1))
    assert result["error"] is None, result["error"]
    logged = sections(proc.stderr)
    for section in ("alone", "streams 2", "streams 3", "streams 4"):
        lines = logged[section]
        assert lines and all(line.endswith(f"route=ecgemm ({mode})") for line in lines), (
            section, [line for line in lines if "route=ecgemm" not in line][:10])
    assert set(result["mismatches"]) == {"2", "3", "4"}
    assert all(count == 0 for per_case in result["mismatches"].values()
               for count in per_case.values()), result["mismatches"]
    # Autograd's device thread made products too (its own cuBLAS handle, its own ecgemm one).
    threads = set(re.findall(r"ecgemm handle made for thread (\d+)", proc.stderr))
    assert len(threads) >= 2, threads
    # The cases must use scratch memory, where this ecgemm can say (ecgemm.explain).
    workspaces = [int(w) for plan in result["plans"].values()
                  for w in re.findall(r"workspace=(\d+)", plan)]
    if workspaces:
        assert max(workspaces) > 0, result["plans"]


TWO_MAJORS = """
import json, torch, cupy, ecgemm
torch.backends.cuda.matmul.allow_tf32 = False
g = torch.Generator(device="cuda").manual_seed(1)
a = torch.rand(1024, 768, device="cuda", generator=g) * 2 - 1
b = torch.rand(768, 896, device="cuda", generator=g) * 2 - 1
exact = a.double() @ b.double()
products = {"torch": lambda: torch.mm(a, b),
            "cupy": lambda: torch.as_tensor(cupy.matmul(cupy.asarray(a), cupy.asarray(b)),
                                            device="cuda")}
results = {}
for name, product in products.items():
    with ecgemm.intercept_cublas(mode="off"):
        off = product()
    on = product()
    torch.cuda.synchronize()
    results[name] = {route: float(torch.linalg.norm(x.double() - exact) / torch.linalg.norm(exact))
                     for route, x in (("off", off), ("on", on))}
results["mapped"] = sorted({line.split()[-1] for line in open("/proc/self/maps")
                            if "/libcublas.so." in line})
print(json.dumps(results))
"""


def test_pytorch_and_cupy_with_two_cublas_majors(preload):
    # PyTorch's cuBLAS and CuPy's in one process: each handle is served by the library
    # that created it, and both frameworks' products run on ecgemm.
    torch_with_gpu()
    pytest.importorskip("cupy")
    proc = subprocess.run([sys.executable, "-c", TWO_MAJORS], capture_output=True, text=True,
                          timeout=300, cwd=Path.home(), env=env(preload))
    assert proc.returncode == 0, proc.stderr[-6000:]
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    print(json.dumps(result, indent=1))
    majors = {Path(path).name for path in result["mapped"]}
    if len(majors) < 2:
        pytest.skip(f"PyTorch and CuPy share one cuBLAS here: {result['mapped']}")
    creators = {Path(line.split(": created by ")[1].rsplit(" on ", 1)[0]).name
                for line in proc.stderr.splitlines() if ": created by " in line}
    assert creators == majors, (creators, majors)
    calls = routes(proc.stderr)
    assert sum("route=ecgemm" in line for line in calls) == 2, calls
    assert sum("(interception off)" in line for line in calls) == 2, calls
    for name in ("torch", "cupy"):
        assert result[name]["on"] <= max(2 * result[name]["off"], 2.0 ** -20), (name, result)
