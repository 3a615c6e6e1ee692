"""Linking ecgemm from C and Fortran (issues 6 and 12), against the INSTALLED package.

The wheel (``python3 -m pip install .``) is an install prefix of its own; these tests
use it the way C and Fortran users do, never the build tree: examples/c and
examples/fortran through ``find_package(ecgemm CONFIG)`` with ``python -m ecgemm
--cmake-prefix``, through pkg-config, and through ``python -m ecgemm --cflags/--libs``;
the C test programs of tests/c through find_package too. They run on the host route
(``CUDA_VISIBLE_DEVICES=""`` hides any GPU, so the library's no-GPU fallback is what
runs, everywhere); the ``gpu`` tests rerun them on the GPU route with every mode. One
plain CMake build (one architecture) checks that ``cmake --install`` lays out the same
package and that its prefix can be moved.

Error bounds (tests/c/blas_test_util.h, examples/fortran/*.f90), per element of C,
relative to |alpha| sum|a*b| + |beta*c|, u = 2^-24:
  fp32                  2(k+2)u             FP32 accumulation (host loops, SIMT kernel)
  tf32tf32, halfhalf    2^-20 + 2(k+2)u     hi+lo carries 22 of 24 bits; dropped lo*lo ~ 2^-22
  auto                  2^-20 + 2(k+2)u     halfhalf on rows scaled into FP16's window, else tf32tf32
  markidis              2^-18 + 4(k+2)u     unscaled FP16 lo goes subnormal; truncating TC sums
  tf32, fp16            2^-9 + 4(k+2)u      one uncorrected pass: 11-bit significands
Entries are sign * m * 2^e with e in [-4, 4], inside FP16's range.

Missing tools (cmake, a C compiler, gfortran, pkg-config, the reference BLAS, and nvcc
for the plain CMake build) skip the tests that need them, with the reason.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path
from typing import Dict, List, Optional, Sequence

import pytest

REPO = Path(__file__).resolve().parents[1]
MODES = ("tf32tf32", "halfhalf", "fp32", "tf32", "fp16", "markidis", "auto")
UNCORRECTED_MODES = ("tf32", "fp16")
NO_GPU_NOTICE = "ecgemm_blas: no usable CUDA GPU; SGEMM runs on the host in plain FP32"
SKIPPED = 77  # what the device programs return without a GPU
# The in-tree target names tests/c links, for a driver project that builds it against
# an installed package.
TESTS_C_DRIVER = """cmake_minimum_required(VERSION 3.26)
project(ecgemm_tests_c LANGUAGES C CXX)
find_package(ecgemm CONFIG REQUIRED)
add_library(ecgemm ALIAS ecgemm::ecgemm)
add_library(ecgemm_blas ALIAS ecgemm::blas)
add_subdirectory("{source}" tests_c)
"""


def _which(tool: str) -> Optional[str]:
    """`tool` on PATH, or among this Python's scripts (the test extra's cmake and ninja
    when the virtual environment is not activated)."""
    return shutil.which(tool, path=os.pathsep.join(
        [sysconfig.get_path("scripts"), os.environ.get("PATH", "")]))


def _require(tool: str, why: str) -> str:
    path = _which(tool)
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


def ecgemm_cli(*flags: str) -> str:
    """`python -m ecgemm FLAGS` of the installed package, run outside the repository."""
    return _run([sys.executable, "-m", "ecgemm", *flags], cwd=Path.home()).stdout.strip()


def cmake_build(source: Path, build: Path, *defines: str) -> Path:
    """Configure and build a CMake project (Ninja where available)."""
    cmake = _require("cmake", "the CMake packages are consumed with CMake")
    ninja = _which("ninja")
    generator = ["-G", "Ninja", f"-DCMAKE_MAKE_PROGRAM={ninja}"] if ninja else []
    _run([cmake, "-S", source, "-B", build, *generator, *defines])
    _run([cmake, "--build", build, "--parallel", str(os.cpu_count() or 2)])
    return build


class Install:
    """An installed ecgemm prefix: include/, lib/, lib/cmake/ecgemm, lib/pkgconfig."""

    def __init__(self, prefix: Path, libdir: str = "lib"):
        self.prefix = prefix
        self.lib = prefix / libdir
        self.include = prefix / "include"
        self.pkgconfig = self.lib / "pkgconfig"


@pytest.fixture(scope="session")
def install() -> Install:
    """The installed wheel, found through ``python -m ecgemm --cmake-prefix``."""
    if importlib.util.find_spec("ecgemm") is None:
        pytest.skip("ecgemm is not installed (python3 -m pip install '.[test]')")
    prefix = Path(ecgemm_cli("--cmake-prefix"))
    assert REPO not in prefix.parents, f"{prefix} is the source tree, not an installed package"
    return Install(prefix)


@pytest.fixture(scope="session")
def programs(install, tmp_path_factory) -> Path:
    """tests/c built against the installed package through find_package(ecgemm CONFIG)."""
    driver = tmp_path_factory.mktemp("tests_c_driver")
    (driver / "CMakeLists.txt").write_text(
        TESTS_C_DRIVER.format(source=(REPO / "tests" / "c").as_posix()))
    build = cmake_build(driver, driver / "build", f"-DCMAKE_PREFIX_PATH={install.prefix}")
    return build / "tests_c"


def program(programs: Path, name: str) -> Path:
    path = programs / name
    if not path.exists():
        pytest.fail(f"{name} was not built in {programs}")
    return path


@pytest.fixture(scope="session")
def examples_c(install, tmp_path_factory) -> Path:
    """examples/c configured with find_package(ecgemm CONFIG) from ``--cmake-prefix``."""
    return cmake_build(REPO / "examples" / "c", tmp_path_factory.mktemp("examples_c"),
                       f"-DCMAKE_PREFIX_PATH={install.prefix}")


def _gfortran(out: Path, sources: List[Path], flags: Sequence[str]) -> Path:
    gfortran = _require("gfortran", "install gfortran to build the Fortran programs")
    exe = out / sources[0].stem
    proc = subprocess.run(
        [gfortran, "-std=f2018", "-Wall", "-Wextra", "-Werror", f"-J{out}",
         *map(str, sources), "-o", str(exe), *flags], capture_output=True, text=True, cwd=out)
    if proc.returncode != 0 and "-lblas" in flags and "cannot find -lblas" in proc.stderr:
        pytest.skip("the system reference BLAS is missing (apt-get install libblas-dev)")
    assert proc.returncode == 0, proc.stderr
    return exe


def cli_flags(*extra_libs: str) -> List[str]:
    """``$(python -m ecgemm --cflags --libs) extra_libs``: the run path comes with --libs."""
    return [*ecgemm_cli("--cflags", "--libs").split(), *extra_libs]


def _worst_relative_error(stdout: str) -> float:
    match = re.search(r"worst relative error ([0-9.eE+-]+)", stdout)
    assert match, stdout
    return float(match.group(1))


# --- the installed package ------------------------------------------------------------------

def test_blas_library_exports_only_the_blas_interface(install):
    nm = _require("nm", "binutils lists the exported symbols")
    out = _run([nm, "-D", "--defined-only", install.lib / "libecgemm_blas.so"]).stdout
    symbols = {line.split()[-1]: line.split()[-2] for line in out.splitlines() if line.strip()}
    assert set(symbols) == {"sgemm_", "sgemm_batch_strided_", "cblas_sgemm", "xerbla_"}, symbols
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


# --- host route: tests/c programs, built against the installed package ----------------------

@pytest.mark.parametrize("name", ["header_c99", "header_cxx", "blas_correctness",
                                  "blas_batch_strided", "xerbla_exits", "blas_threads"])
def test_c_program_on_the_host_route(programs, name):
    proc = _run([program(programs, name)], env=host_env())
    assert re.search(r"\b0 (failure|failed)", proc.stdout), proc.stdout


def test_blas_correctness_host_route_is_fp32_accurate_and_announced(programs):
    proc = _run([program(programs, "blas_correctness")], env=host_env())
    assert re.search(r"\d+ cases, 0 failed; mode fp32", proc.stdout), proc.stdout
    assert proc.stderr.count(NO_GPU_NOTICE) == 1, "the no-GPU notice is printed exactly once"


def test_host_route_matches_the_reference_blas_bit_for_bit(programs):
    proc = _run([program(programs, "host_matches_reference")],
                env=host_env(ECGEMM_BLAS_HOST_THRESHOLD=str(2**63 - 1)), expect=(0, SKIPPED))
    if proc.returncode == SKIPPED:
        pytest.skip(proc.stdout.strip())
    assert re.search(r"\d+ cases, 0 failed", proc.stdout), proc.stdout


def test_ecgemm_cblas_h_coexists_with_the_system_cblas_h(programs):
    exe = programs / "cblas_h_compat"
    if not exe.exists():
        pytest.skip("no system cblas.h to be compatible with (apt-get install libblas-dev)")
    assert "cblas_h_compat: ok" in _run([exe], env=host_env()).stdout


def test_default_xerbla_prints_netlib_message_and_returns(programs):
    proc = _run([program(programs, "default_xerbla")], env=host_env())
    assert " ** On entry to SGEMM parameter number  8 had an illegal value" in proc.stderr
    assert "C untouched" in proc.stdout


def test_unknown_mode_warns_once_and_uses_the_default(programs):
    proc = _run([program(programs, "blas_threads")],
                env=_clean_env(CUDA_VISIBLE_DEVICES="", ECGEMM_BLAS_MODE="bf16x9",
                               ECGEMM_BLAS_VERBOSE="1"))
    assert proc.stderr.count("unknown ECGEMM_BLAS_MODE='bf16x9'") == 1, proc.stderr
    assert "route=host mode=tf32tf32" in proc.stderr


def test_device_programs_skip_cleanly_without_a_gpu(programs, examples_c):
    for exe in (program(programs, "blas_device_pointers"), examples_c / "sgemm_device"):
        proc = _run([exe], env=host_env(), expect=(SKIPPED,))
        assert "no CUDA device" in proc.stdout


# --- C users: find_package, pkg-config, python -m ecgemm --cflags/--libs -----------------

def test_examples_c_build_with_find_package_and_run(examples_c):
    assert (examples_c / "sgemm_device").exists()
    proc = _run([examples_c / "cblas_host"], env=host_env())
    assert ": ok" in proc.stdout and NO_GPU_NOTICE in proc.stderr


def _pkg_config(install: Install, *packages: str) -> List[str]:
    pkg_config = _require("pkg-config", "the README's pkg-config line needs it")
    env = dict(os.environ, PKG_CONFIG_PATH=str(install.pkgconfig))
    return _run([pkg_config, "--cflags", "--libs", *packages], env=env).stdout.split()


def _cc(source: str, out: Path, flags: Sequence[str]) -> Path:
    cc = _require("cc", "a C compiler builds the examples")
    exe = out / Path(source).stem
    _run([cc, "-std=c99", "-Wall", "-Wextra", "-Werror", REPO / "examples" / "c" / source,
          "-o", exe, *flags, "-lm"])
    return exe


def _check_c_examples(sgemm_device: Path, cblas_host: Path) -> None:
    proc = _run([sgemm_device], env=host_env(), expect=(SKIPPED,))
    assert "no CUDA device" in proc.stdout
    proc = _run([cblas_host], env=host_env())
    assert ": ok" in proc.stdout and NO_GPU_NOTICE in proc.stderr


def test_examples_c_build_with_pkg_config(install, tmp_path):
    rpath = f"-Wl,-rpath,{install.lib}"
    _check_c_examples(_cc("sgemm_device.c", tmp_path, [*_pkg_config(install, "ecgemm"), rpath]),
                      _cc("cblas_host.c", tmp_path, [*_pkg_config(install, "ecgemm_blas"), rpath]))


def test_examples_c_build_with_cflags_and_libs(install, tmp_path):
    _check_c_examples(_cc("sgemm_device.c", tmp_path, cli_flags()),
                      _cc("cblas_host.c", tmp_path, cli_flags("-lecgemm_blas")))


# --- Fortran users ----------------------------------------------------------------------

@pytest.fixture(scope="session")
def examples_fortran(install, tmp_path_factory) -> Path:
    """examples/fortran configured with find_package(ecgemm CONFIG) from ``--cmake-prefix``."""
    _require("gfortran", "install gfortran to build the Fortran programs")
    return cmake_build(REPO / "examples" / "fortran", tmp_path_factory.mktemp("examples_fortran"),
                       f"-DCMAKE_PREFIX_PATH={install.prefix}")


def _check_device_sgemm(exe: Path) -> None:
    proc = _run([exe], env=host_env(), expect=(SKIPPED,))
    assert "no CUDA device" in proc.stdout


def _check_blas_dropin(exe: Path) -> None:
    proc = _run([exe], env=host_env())
    assert "blas_dropin: 0 failure(s)" in proc.stdout
    # The notice proves SGEMM came from libecgemm_blas, not from -lblas.
    assert proc.stderr.count(NO_GPU_NOTICE) == 1


def test_examples_fortran_build_with_find_package_and_run(examples_fortran):
    _check_device_sgemm(examples_fortran / "device_sgemm")
    if not (examples_fortran / "blas_dropin").exists():
        pytest.skip("CMake found no BLAS for blas_dropin (apt-get install libblas-dev)")
    _check_blas_dropin(examples_fortran / "blas_dropin")


def test_fortran_module_program_builds_with_pkg_config(install, tmp_path):
    _require("gfortran", "install gfortran to build the Fortran programs")
    flags = _pkg_config(install, "ecgemm_fortran")
    exe = _gfortran(tmp_path, [REPO / "examples" / "fortran" / "device_sgemm.f90"],
                    [*flags, f"-Wl,-rpath,{install.lib}"])
    _check_device_sgemm(exe)


def test_fortran_module_program_builds_with_cflags_and_libs(tmp_path):
    exe = _gfortran(tmp_path, [REPO / "examples" / "fortran" / "device_sgemm.f90"],
                    cli_flags("-lecgemm_fortran"))
    _check_device_sgemm(exe)


def test_fortran_module_source_builds_with_the_program(install, tmp_path):
    """The shipped ecgemm.f90 is what users of another Fortran compiler build."""
    exe = _gfortran(tmp_path, [install.include / "ecgemm.f90",
                               REPO / "examples" / "fortran" / "device_sgemm.f90"],
                    [f"-L{install.lib}", f"-Wl,-rpath,{install.lib}", "-lecgemm"])
    _check_device_sgemm(exe)


def test_fortran_blas_dropin_ahead_of_reference_blas(tmp_path):
    exe = _gfortran(tmp_path, [REPO / "examples" / "fortran" / "blas_dropin.f90"],
                    cli_flags("-lecgemm_blas", "-lblas"))
    _check_blas_dropin(exe)


def test_fortran_xerbla_replaces_the_default(tmp_path):
    exe = _gfortran(tmp_path, [REPO / "fortran" / "tests" / "xerbla_exits.f90"],
                    cli_flags("-lecgemm_blas", "-lblas"))
    proc = _run([exe], env=host_env())
    assert "0 failure(s)" in proc.stdout
    assert "On entry to" not in proc.stderr, "the default XERBLA ran instead of the program's"
    assert NO_GPU_NOTICE in proc.stderr, "SGEMM did not come from libecgemm_blas"


# --- plain CMake installs ------------------------------------------------------------------

@pytest.fixture(scope="session")
def plain_install(tmp_path_factory) -> Install:
    """``cmake --install`` of a plain CMake build, moved to another folder afterwards
    (and the build tree deleted): every path inside must follow the move.

    One architecture (ECGEMM_TEST_CUDA_ARCHITECTURES, default 80-real) is enough for
    the layout; the wheel's library, built for all of them, is what the tests above run.
    """
    cmake = _require("cmake", "the plain CMake install is built with CMake")
    if _which("nvcc") is None and not os.environ.get("CUDACXX"):
        pytest.skip("nvcc not found (and CUDACXX unset): libecgemm cannot be compiled")
    root = tmp_path_factory.mktemp("plain_cmake")
    arch = os.environ.get("ECGEMM_TEST_CUDA_ARCHITECTURES", "80-real")
    build = cmake_build(REPO, root / "build", "-DCMAKE_BUILD_TYPE=Release",
                        f"-DECGEMM_CUDA_ARCHITECTURES={arch}", "-DECGEMM_BUILD_TESTS=OFF",
                        f"-DCMAKE_INSTALL_PREFIX={root / 'prefix'}")
    _run([cmake, "--install", build])
    shutil.rmtree(build)
    moved = root / "moved"
    (root / "prefix").rename(moved)
    # GNUInstallDirs may pick lib64 on some distributions; the package layout follows it.
    return Install(moved, next(d for d in ("lib", "lib64") if (moved / d).is_dir()))


def test_plain_install_has_versioned_libraries_and_the_same_package(plain_install):
    lib = plain_install.lib
    for name in ("libecgemm", "libecgemm_blas"):
        assert os.readlink(lib / f"{name}.so") == f"{name}.so.0", name
        assert os.readlink(lib / f"{name}.so.0") == f"{name}.so.0.1.0", name
    for rel in ("ecgemm.h", "ecgemm_blas.h", "ecgemm_cblas.h", "ecgemm.f90"):
        assert (plain_install.include / rel).is_file(), rel
    for rel in ("cmake/ecgemm/ecgemmConfig.cmake", "pkgconfig/ecgemm.pc",
                "pkgconfig/ecgemm_blas.pc"):
        assert (lib / rel).is_file(), rel
    if _which("gfortran"):
        assert (plain_install.include / "ecgemm.mod").is_file()
        assert (lib / "libecgemm_fortran.so").exists()


def test_moved_plain_install_builds_the_c_examples(plain_install, tmp_path):
    build = cmake_build(REPO / "examples" / "c", tmp_path / "cmake",
                        f"-DCMAKE_PREFIX_PATH={plain_install.prefix}")
    rpath = f"-Wl,-rpath,{plain_install.lib}"
    _check_c_examples(build / "sgemm_device", build / "cblas_host")
    flags = _pkg_config(plain_install, "ecgemm_blas")
    assert f"-I{plain_install.include}" in [os.path.normpath(f) for f in flags], flags
    _check_c_examples(
        _cc("sgemm_device.c", tmp_path, [*_pkg_config(plain_install, "ecgemm"), rpath]),
        _cc("cblas_host.c", tmp_path, [*flags, rpath]))


# --- GPU route ----------------------------------------------------------------------------

def _gpu_routes(stderr: str) -> List[str]:
    return re.findall(r"route=(\w+)", stderr)


@pytest.mark.gpu
@pytest.mark.parametrize("mode", MODES)
def test_gpu_blas_correctness_every_mode(programs, mode):
    proc = _run([program(programs, "blas_correctness")], env=gpu_env(mode))
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
def test_gpu_blas_batch_strided_every_mode(programs, mode):
    proc = _run([program(programs, "blas_batch_strided")], env=gpu_env(mode))
    assert re.search(r"\d+ cases, 0 failed", proc.stdout), proc.stdout
    routes = _gpu_routes(proc.stderr)
    assert "failed" not in routes and routes.count("gpu") >= 15, routes
    assert "batch=64 route=gpu" in proc.stderr   # the 64-product case ran as one batch


@pytest.mark.gpu
@pytest.mark.parametrize("mode", MODES)
def test_gpu_device_pointers_every_mode(programs, mode):
    proc = _run([program(programs, "blas_device_pointers")], env=gpu_env(mode))
    assert "0 failure(s)" in proc.stdout
    assert "A=device B=device C=device" in proc.stderr


@pytest.mark.gpu
def test_gpu_blas_threads(programs):
    proc = _run([program(programs, "blas_threads")], env=gpu_env("tf32tf32"))
    assert set(_gpu_routes(proc.stderr)) == {"gpu"}


@pytest.mark.gpu
def test_gpu_c_examples(examples_c):
    for name in ("sgemm_device", "sgemm_cudart"):
        proc = _run([examples_c / name], env=_clean_env())
        assert ": ok" in proc.stdout
    proc = _run([examples_c / "cblas_host"], env=gpu_env("tf32tf32"))
    assert ": ok" in proc.stdout and "route=gpu" in proc.stderr


@pytest.mark.gpu
@pytest.mark.parametrize("mode", MODES)
def test_gpu_fortran_programs_every_mode(tmp_path, mode):
    module_exe = _gfortran(tmp_path, [REPO / "examples" / "fortran" / "device_sgemm.f90"],
                           cli_flags("-lecgemm_fortran"))
    proc = _run([module_exe, mode], env=_clean_env())
    assert "device_sgemm: ok" in proc.stdout
    dropin = _gfortran(tmp_path, [REPO / "examples" / "fortran" / "blas_dropin.f90"],
                       cli_flags("-lecgemm_blas", "-lblas"))
    proc = _run([dropin], env=gpu_env(mode))
    assert "blas_dropin: 0 failure(s)" in proc.stdout
    assert "route=gpu" in proc.stderr
