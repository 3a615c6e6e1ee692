"""Linking ecgemm from C and Fortran (issue 6).

Builds the project with plain CMake, installs it into a temporary prefix, and
then uses it the way C and Fortran users do: ``find_package(ecgemm CONFIG)`` and
pkg-config for examples/c, gfortran with the ``ecgemm`` module, and a plain
Fortran program linked ``-lecgemm_blas -lblas``. The test programs in tests/c
and fortran/tests run on the host route (``CUDA_VISIBLE_DEVICES=""`` hides any
GPU, so the library's no-GPU fallback is what runs, everywhere); the ``gpu``
tests rerun them on the GPU route with every mode.

Error bounds (tests/c/blas_test_util.h, examples/fortran/*.f90), per element of C,
relative to |alpha| sum|a*b| + |beta*c|, u = 2^-24:
  fp32                  2(k+2)u             FP32 accumulation (host loops, SIMT kernel)
  tf32tf32, halfhalf    2^-20 + 2(k+2)u     hi+lo carries 22 of 24 bits; dropped lo*lo ~ 2^-22
  markidis              2^-18 + 4(k+2)u     unscaled FP16 lo goes subnormal; truncating TC sums
  tf32, fp16            2^-9 + 4(k+2)u      one uncorrected pass: 11-bit significands
Entries are sign * m * 2^e with e in [-4, 4], inside FP16's range.

Environment: ECGEMM_TEST_CUDA_ARCHITECTURES (default 80-real;90a-real: Ampere, Ada
and Hopper GPUs run it) picks what
libecgemm is compiled for. Missing tools (cmake, nvcc, a C compiler, gfortran,
pkg-config, the reference BLAS) skip the tests that need them, with the reason.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Dict, List, Optional, Sequence

import pytest

REPO = Path(__file__).resolve().parents[1]
MODES = ("tf32tf32", "halfhalf", "fp32", "tf32", "fp16", "markidis")
UNCORRECTED_MODES = ("tf32", "fp16")
NO_GPU_NOTICE = "ecgemm_blas: no usable CUDA GPU; SGEMM runs on the host in plain FP32"
SKIPPED = 77  # what the device programs return without a GPU


def _require(tool: str, why: str) -> str:
    path = shutil.which(tool)
    if path is None:
        pytest.skip(f"{tool} not found: {why}")
    return path


def _run(cmd: Sequence[str], *, env: Optional[Dict[str, str]] = None, cwd: Optional[Path] = None,
         timeout: float = 900, expect: Sequence[int] = (0,)) -> subprocess.CompletedProcess:
    proc = subprocess.run([str(c) for c in cmd], env=env, cwd=cwd, timeout=timeout,
                          capture_output=True, text=True)
    assert proc.returncode in expect, (
        f"{' '.join(map(str, cmd))} exited {proc.returncode}\n"
        f"--- stdout ---\n{proc.stdout[-6000:]}\n--- stderr ---\n{proc.stderr[-6000:]}")
    return proc


def _clean_env(**extra: str) -> Dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("ECGEMM_BLAS_")}
    env.update(extra)
    return env


def host_env(**extra: str) -> Dict[str, str]:
    """No GPU visible: the library must fall back to its FP32 host route."""
    return _clean_env(CUDA_VISIBLE_DEVICES="", ECGEMM_BLAS_MODE="fp32", **extra)


def gpu_env(mode: str, **extra: str) -> Dict[str, str]:
    """Every product on the GPU (no host threshold), one trace line per call."""
    return _clean_env(ECGEMM_BLAS_MODE=mode, ECGEMM_BLAS_HOST_THRESHOLD="0",
                      ECGEMM_BLAS_VERBOSE="1", **extra)


class Install:
    def __init__(self, build: Path, prefix: Path):
        self.build = build
        self.prefix = prefix
        self.lib = prefix / "lib"
        self.include = prefix / "include"

    def program(self, name: str) -> Path:
        """A test program from the build tree (tests/c or fortran/)."""
        for sub in ("tests/c", "fortran"):
            path = self.build / sub / name
            if path.exists():
                return path
        pytest.fail(f"{name} was not built in {self.build}")


@pytest.fixture(scope="session")
def install(tmp_path_factory) -> Install:
    cmake = _require("cmake", "the C/Fortran packages are built with CMake")
    if shutil.which("nvcc") is None and not os.environ.get("CUDACXX"):
        pytest.skip("nvcc not found (and CUDACXX unset): libecgemm cannot be compiled")
    root = tmp_path_factory.mktemp("linking")
    build, prefix = root / "build", root / "prefix"
    arch = os.environ.get("ECGEMM_TEST_CUDA_ARCHITECTURES", "80-real;90a-real")
    generator = ["-G", "Ninja"] if shutil.which("ninja") else []
    _run([cmake, "-S", REPO, "-B", build, *generator, "-DCMAKE_BUILD_TYPE=Release",
          f"-DECGEMM_CUDA_ARCHITECTURES={arch}", f"-DCMAKE_INSTALL_PREFIX={prefix}",
          "-DECGEMM_BUILD_TESTS=ON", "-DECGEMM_BUILD_BLAS=ON", "-DECGEMM_BUILD_FORTRAN=ON"])
    _run([cmake, "--build", build, "--parallel", str(os.cpu_count() or 2)])
    _run([cmake, "--install", build])
    return Install(build, prefix)


@pytest.fixture(scope="session")
def examples_c(install, tmp_path_factory) -> Path:
    """examples/c configured with find_package(ecgemm CONFIG) from the install prefix."""
    build = tmp_path_factory.mktemp("examples_c")
    generator = ["-G", "Ninja"] if shutil.which("ninja") else []
    _run(["cmake", "-S", REPO / "examples" / "c", "-B", build, *generator,
          f"-DCMAKE_PREFIX_PATH={install.prefix}"])
    _run(["cmake", "--build", build])
    return build


def _gfortran(install: Install, out: Path, sources: List[Path], libs: List[str]) -> Path:
    gfortran = _require("gfortran", "install gfortran to build the Fortran programs")
    exe = out / sources[0].stem
    proc = subprocess.run(
        [gfortran, "-std=f2018", "-Wall", "-Wextra", "-Werror", f"-I{install.include}",
         f"-J{out}", *map(str, sources), "-o", str(exe), f"-L{install.lib}",
         f"-Wl,-rpath,{install.lib}", *libs], capture_output=True, text=True, cwd=out)
    if proc.returncode != 0 and "-lblas" in libs and "cannot find -lblas" in proc.stderr:
        pytest.skip("the system reference BLAS is missing (apt-get install libblas-dev)")
    assert proc.returncode == 0, proc.stderr
    return exe


def _worst_relative_error(stdout: str) -> float:
    match = re.search(r"worst relative error ([0-9.eE+-]+)", stdout)
    assert match, stdout
    return float(match.group(1))


# --- the installed package ------------------------------------------------------------------

def test_install_tree_holds_headers_libraries_and_package_files(install):
    for rel in ("include/ecgemm.h", "include/ecgemm_blas.h", "include/ecgemm_cblas.h",
                "lib/libecgemm.so", "lib/libecgemm_blas.so", "lib/cmake/ecgemm/ecgemmConfig.cmake",
                "lib/pkgconfig/ecgemm.pc", "lib/pkgconfig/ecgemm_blas.pc"):
        assert (install.prefix / rel).exists(), rel
    if shutil.which("gfortran"):
        assert (install.include / "ecgemm.mod").exists()
        assert (install.lib / "libecgemm_fortran.so").exists()


def test_blas_library_exports_only_the_blas_interface(install):
    nm = _require("nm", "binutils lists the exported symbols")
    out = _run([nm, "-D", "--defined-only", install.lib / "libecgemm_blas.so"]).stdout
    symbols = {line.split()[-1]: line.split()[-2] for line in out.splitlines() if line.strip()}
    assert set(symbols) == {"sgemm_", "cblas_sgemm", "xerbla_"}, symbols
    assert symbols["xerbla_"] == "W", "the default XERBLA must be weak so the program's wins"


def test_fortran_module_matches_the_c_header():
    """Every ECGEMM_API function has a bind(C) interface; every enumerator the same value."""
    header = (REPO / "include" / "ecgemm.h").read_text()
    module = (REPO / "fortran" / "ecgemm.f90").read_text()
    functions = set(re.findall(r"ECGEMM_API\s+[\w\s\*]*?\b(ecgemm_\w+)\s*\(", header))
    bound = set(re.findall(r'bind\(C, name="(ecgemm_\w+)"\)', module))
    assert functions and functions == bound, (functions - bound, bound - functions)
    c_enums = {name: int(value) for name, value in
               re.findall(r"\b(ECGEMM_[A-Z0-9_]+)\s*=\s*(\d+)", header)}
    f_enums = {name: int(value) for name, value in
               re.findall(r"enumerator :: (ECGEMM_[A-Z0-9_]+) = (\d+)", module)}
    assert c_enums and c_enums == f_enums
    for part in ("MAJOR", "MINOR", "PATCH"):
        c_value = re.search(rf"#define ECGEMM_VERSION_{part} (\d+)", header).group(1)
        f_value = re.search(rf"ECGEMM_VERSION_{part} = (\d+)", module).group(1)
        assert c_value == f_value, part


# --- host route: tests/c and fortran/tests programs ---------------------------------------

@pytest.mark.parametrize("program", ["header_c99", "header_cxx", "blas_correctness",
                                     "xerbla_exits", "blas_threads"])
def test_c_program_on_the_host_route(install, program):
    proc = _run([install.program(program)], env=host_env())
    assert re.search(r"\b0 (failure|failed)", proc.stdout), proc.stdout


def test_blas_correctness_host_route_is_fp32_accurate_and_announced(install):
    proc = _run([install.program("blas_correctness")], env=host_env())
    assert re.search(r"\d+ cases, 0 failed; mode fp32", proc.stdout), proc.stdout
    assert proc.stderr.count(NO_GPU_NOTICE) == 1, "the no-GPU notice is printed exactly once"


def test_host_route_matches_the_reference_blas_bit_for_bit(install):
    proc = _run([install.program("host_matches_reference")],
                env=host_env(ECGEMM_BLAS_HOST_THRESHOLD=str(2**63 - 1)), expect=(0, SKIPPED))
    if proc.returncode == SKIPPED:
        pytest.skip(proc.stdout.strip())
    assert re.search(r"\d+ cases, 0 failed", proc.stdout), proc.stdout


def test_ecgemm_cblas_h_coexists_with_the_system_cblas_h(install):
    exe = install.build / "tests" / "c" / "cblas_h_compat"
    if not exe.exists():
        pytest.skip("no system cblas.h to be compatible with (apt-get install libblas-dev)")
    assert "cblas_h_compat: ok" in _run([exe], env=host_env()).stdout


def test_default_xerbla_prints_netlib_message_and_returns(install):
    proc = _run([install.program("default_xerbla")], env=host_env())
    assert " ** On entry to SGEMM parameter number  8 had an illegal value" in proc.stderr
    assert "C untouched" in proc.stdout


def test_unknown_mode_warns_once_and_uses_the_default(install):
    proc = _run([install.program("blas_threads")],
                env=_clean_env(CUDA_VISIBLE_DEVICES="", ECGEMM_BLAS_MODE="bf16x9",
                               ECGEMM_BLAS_VERBOSE="1"))
    assert proc.stderr.count("unknown ECGEMM_BLAS_MODE='bf16x9'") == 1, proc.stderr
    assert "route=host mode=tf32tf32" in proc.stderr


def test_device_programs_skip_cleanly_without_a_gpu(install, examples_c):
    for exe in (install.program("blas_device_pointers"), examples_c / "sgemm_device"):
        proc = _run([exe], env=host_env(), expect=(SKIPPED,))
        assert "no CUDA device" in proc.stdout


# --- C users: find_package and pkg-config ------------------------------------------------

def test_examples_c_build_with_find_package_and_run(install, examples_c):
    assert (examples_c / "sgemm_device").exists()
    proc = _run([examples_c / "cblas_host"], env=host_env())
    assert ": ok" in proc.stdout and NO_GPU_NOTICE in proc.stderr


def test_examples_c_build_with_pkg_config(install, tmp_path):
    pkg_config = _require("pkg-config", "the README's pkg-config line needs it")
    cc = _require("cc", "a C compiler builds the examples")
    env = dict(os.environ, PKG_CONFIG_PATH=str(install.lib / "pkgconfig"))
    for source, package in (("sgemm_device.c", "ecgemm"), ("cblas_host.c", "ecgemm_blas")):
        flags = _run([pkg_config, "--cflags", "--libs", package], env=env).stdout.split()
        exe = tmp_path / Path(source).stem
        _run([cc, "-std=c99", "-Wall", "-Wextra", "-Werror", REPO / "examples" / "c" / source,
              "-o", exe, *flags, f"-Wl,-rpath,{install.lib}", "-lm"])
    proc = _run([tmp_path / "cblas_host"], env=host_env())
    assert ": ok" in proc.stdout


# --- Fortran users ----------------------------------------------------------------------

def test_fortran_module_program_builds_against_the_install(install, tmp_path):
    exe = _gfortran(install, tmp_path, [REPO / "examples" / "fortran" / "device_sgemm.f90"],
                    ["-lecgemm_fortran", "-lecgemm"])
    proc = _run([exe], env=host_env(), expect=(SKIPPED,))
    assert "no CUDA device" in proc.stdout


def test_fortran_blas_dropin_ahead_of_reference_blas(install, tmp_path):
    exe = _gfortran(install, tmp_path, [REPO / "examples" / "fortran" / "blas_dropin.f90"],
                    ["-lecgemm_blas", "-lblas"])
    proc = _run([exe], env=host_env())
    assert "blas_dropin: 0 failure(s)" in proc.stdout
    # The notice proves SGEMM came from libecgemm_blas, not from -lblas.
    assert proc.stderr.count(NO_GPU_NOTICE) == 1


def test_fortran_xerbla_replaces_the_default(install, tmp_path):
    exe = _gfortran(install, tmp_path, [REPO / "fortran" / "tests" / "xerbla_exits.f90"],
                    ["-lecgemm_blas", "-lblas"])
    proc = _run([exe], env=host_env())
    assert "0 failure(s)" in proc.stdout
    assert "On entry to" not in proc.stderr, "the default XERBLA ran instead of the program's"
    assert NO_GPU_NOTICE in proc.stderr, "SGEMM did not come from libecgemm_blas"


# --- GPU route ----------------------------------------------------------------------------

def _gpu_routes(stderr: str) -> List[str]:
    return re.findall(r"route=(\w+)", stderr)


@pytest.mark.gpu
@pytest.mark.parametrize("mode", MODES)
def test_gpu_blas_correctness_every_mode(install, mode):
    proc = _run([install.program("blas_correctness")], env=gpu_env(mode))
    routes = _gpu_routes(proc.stderr)
    assert "failed" not in routes and routes.count("gpu") > 500, routes[:20]
    # Within the mode's bound is the program's own check (exit status). On top: an
    # uncorrected 11-bit pass must show, or the mode never reached the kernels.
    worst = _worst_relative_error(proc.stdout)
    if mode in UNCORRECTED_MODES:
        assert worst > 2.0 ** -16, worst
    elif mode != "markidis":
        assert worst < 2.0 ** -16, worst


@pytest.mark.gpu
@pytest.mark.parametrize("mode", MODES)
def test_gpu_device_pointers_every_mode(install, mode):
    proc = _run([install.program("blas_device_pointers")], env=gpu_env(mode))
    assert "0 failure(s)" in proc.stdout
    assert "A=device B=device C=device" in proc.stderr


@pytest.mark.gpu
def test_gpu_blas_threads(install):
    proc = _run([install.program("blas_threads")], env=gpu_env("tf32tf32"))
    assert set(_gpu_routes(proc.stderr)) == {"gpu"}


@pytest.mark.gpu
def test_gpu_c_examples(install, examples_c):
    for name in ("sgemm_device", "sgemm_cudart"):
        proc = _run([examples_c / name], env=_clean_env())
        assert ": ok" in proc.stdout
    proc = _run([examples_c / "cblas_host"], env=gpu_env("tf32tf32"))
    assert ": ok" in proc.stdout and "route=gpu" in proc.stderr


@pytest.mark.gpu
@pytest.mark.parametrize("mode", MODES)
def test_gpu_fortran_programs_every_mode(install, tmp_path, mode):
    module_exe = _gfortran(install, tmp_path, [REPO / "examples" / "fortran" / "device_sgemm.f90"],
                           ["-lecgemm_fortran", "-lecgemm"])
    proc = _run([module_exe, mode], env=_clean_env())
    assert "device_sgemm: ok" in proc.stdout
    dropin = _gfortran(install, tmp_path, [REPO / "examples" / "fortran" / "blas_dropin.f90"],
                       ["-lecgemm_blas", "-lblas"])
    proc = _run([dropin], env=gpu_env(mode))
    assert "blas_dropin: 0 failure(s)" in proc.stdout
    assert "route=gpu" in proc.stderr
