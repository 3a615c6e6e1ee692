"""What the wheel ships for C, C++ and Fortran users (issue 12), and how to find it.

The installed distribution's file list (its RECORD: the wheel's contents, as pip
installed them; README's install command builds that wheel) is checked, never the
build tree. ``ECGEMM_TEST_WHEEL=dist/ecgemm-*.whl`` checks a wheel file from
``pip wheel .`` as well. Building C and Fortran programs against the installed
package is tests/test_linking.py's business.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
import zipfile
from importlib import metadata
from pathlib import Path, PurePosixPath
from typing import Callable, Dict, List

import pytest

REPO = Path(__file__).resolve().parents[1]
PACKAGE = PurePosixPath("ecgemm")
# Always in the wheel: the C ABI, the BLAS drop-in, the Fortran module source, the
# CMake package and the pkg-config files (cmake/ecgemmInstall.cmake's layout).
TOOLCHAIN = ("include/ecgemm.h", "include/ecgemm_blas.h", "include/ecgemm_cblas.h",
             "include/ecgemm.f90", "lib/libecgemm.so", "lib/libecgemm_blas.so",
             "lib/cmake/ecgemm/ecgemmConfig.cmake", "lib/cmake/ecgemm/ecgemmConfigVersion.cmake",
             "lib/cmake/ecgemm/ecgemmTargets.cmake", "lib/pkgconfig/ecgemm.pc",
             "lib/pkgconfig/ecgemm_blas.pc")
# Where gfortran existed at build time: the compiled module and its library.
FORTRAN = ("include/ecgemm.mod", "lib/libecgemm_fortran.so", "lib/pkgconfig/ecgemm_fortran.pc")
# ecgemm.jax: its Python modules always; its XLA FFI handler where jaxlib was
# importable by the building Python (python/xla_ffi.cmake), never its C++ source.
JAX_MODULES = ("jax/__init__.py", "jax/_functions.py", "jax/_handler.py", "jax/_ops.py",
               "jax/_sharding.py", "jax/_target.py")
JAX_HANDLER = "lib/libecgemm_jax.so"
# ecgemm/jax/_handler.py loads them
JAX_HANDLER_SYMBOLS = ("EcgemmMatmulCuda", "EcgemmMatmulHost", "EcgemmMatmulWorkspaceBytes")
# An absolute path: a slash that does not continue a variable (${prefix}/lib), a name
# or a relative path (../include), followed by a name. "/" alone is allowed (CMake
# compares its import prefix with it).
ABSOLUTE_PATH = re.compile(r"(?<![\w}.$])/[\w.-]")


class Shipped:
    """The files of one ecgemm wheel: names relative to the wheel root, and contents."""

    def __init__(self, readers: Dict[str, Callable[[], bytes]]):
        self._readers = readers
        self.names = set(readers)

    def read(self, name: str) -> bytes:
        return self._readers[name]()

    def under(self, folder: str, suffix: str = "") -> List[str]:
        prefix = f"{PACKAGE / folder}/"
        return sorted(n for n in self.names if n.startswith(prefix) and n.endswith(suffix))


def _installed() -> Shipped:
    try:
        files = metadata.distribution("ecgemm").files or []
    except metadata.PackageNotFoundError:
        pytest.skip("ecgemm is not installed (python3 -m pip install '.[test]')")
    return Shipped({str(PurePosixPath(*f.parts)): f.locate().read_bytes for f in files})


def _wheel_file() -> Shipped:
    path = os.environ.get("ECGEMM_TEST_WHEEL")
    if not path:
        pytest.skip("set ECGEMM_TEST_WHEEL to a wheel from `pip wheel .` to check it as well")
    archive = zipfile.ZipFile(path)
    return Shipped({name: (lambda name=name: archive.read(name)) for name in archive.namelist()})


@pytest.fixture(scope="module", params=["installed", "wheel file"])
def shipped(request) -> Shipped:
    return _installed() if request.param == "installed" else _wheel_file()


def test_wheel_ships_the_c_and_fortran_toolchain(shipped):
    missing = [rel for rel in TOOLCHAIN if str(PACKAGE / rel) not in shipped.names]
    assert not missing, f"not in the wheel: {missing}"
    if shutil.which("gfortran"):  # CI installs it before building the wheel
        missing = [rel for rel in FORTRAN if str(PACKAGE / rel) not in shipped.names]
        assert not missing, f"gfortran is here, but the wheel lacks {missing}"


def test_each_library_is_shipped_once(shipped):
    """Wheels hold no symlinks: a libecgemm.so.0 beside libecgemm.so would be a second copy."""
    libraries = shipped.under("lib", "")
    assert not [n for n in libraries if re.search(r"\.so\.\d", n)], libraries
    assert not [n for n in shipped.names if re.fullmatch(r"ecgemm/libecgemm.*\.so.*", n)], \
        "libraries belong in ecgemm/lib"


def test_cmake_and_pkg_config_files_hold_no_absolute_paths(shipped):
    """Relocatable: the CMake package finds itself from its own location, pkg-config
    from ${pcfiledir}; nothing of the build machine's paths may remain."""
    files = shipped.under("lib/cmake", ".cmake") + shipped.under("lib/pkgconfig", ".pc")
    assert len(files) >= 5, files
    for name in files:
        text = shipped.read(name).decode()
        code = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#"))
        assert ABSOLUTE_PATH.findall(code) == [], (name, ABSOLUTE_PATH.findall(code))
        assert str(REPO) not in text, name
    for name in shipped.under("lib/pkgconfig", ".pc"):
        assert "prefix=${pcfiledir}/" in shipped.read(name).decode(), name


def _dynamic_section(data: bytes, tmp_path: Path) -> Dict[str, List[str]]:
    """NEEDED and RUNPATH/RPATH entries of a shared object, through binutils' readelf."""
    readelf = shutil.which("readelf")
    if readelf is None:
        pytest.skip("readelf (binutils) not found")
    path = tmp_path / "object.so"
    path.write_bytes(data)
    out = subprocess.run([readelf, "-d", "-W", str(path)], capture_output=True, text=True,
                         check=True).stdout
    entries: Dict[str, List[str]] = {"NEEDED": [], "RUNPATH": []}
    for tag, value in re.findall(r"\((NEEDED|RUNPATH|RPATH)\)\s+[^:]+: \[(.*)\]", out):
        entries["NEEDED" if tag == "NEEDED" else "RUNPATH"].extend(value.split(":"))
    return entries


def test_shared_objects_find_ecgemm_libraries_through_origin(shipped, tmp_path):
    """Every ecgemm library a shared object needs resolves through a $ORIGIN run path
    inside the wheel, and no run path points at the build machine."""
    objects = [n for n in shipped.names if n.startswith(f"{PACKAGE}/") and n.endswith(".so")]
    assert any("_ecgemm" in n for n in objects), objects
    for name in objects:
        dynamic = _dynamic_section(shipped.read(name), tmp_path)
        assert all(entry.startswith("$ORIGIN") for entry in dynamic["RUNPATH"]), (name, dynamic)
        folder = PurePosixPath(name).parent
        for needed in (lib for lib in dynamic["NEEDED"] if lib.startswith("libecgemm")):
            found = [entry for entry in dynamic["RUNPATH"]
                     if os.path.normpath(str(folder / entry.replace("$ORIGIN", ".") / needed))
                     in shipped.names]
            assert found, f"{name} needs {needed} but no $ORIGIN run path reaches it: {dynamic}"


def _jax_import_error() -> str:
    """What `import ecgemm.jax` raises in a fresh interpreter ("" when it imports)."""
    code = "try:\n    import ecgemm.jax\nexcept ImportError as e:\n    print(e)\n"
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=300, cwd=Path.home())
    assert run.returncode == 0, run.stderr
    return run.stdout.strip()


def test_jax_handler_is_shipped_built_against_jaxlib_or_its_absence_explained(shipped, tmp_path):
    """Both builds: with the handler (in lib/, exporting what ecgemm.jax loads, cudart
    linked statically) or without it (ecgemm.jax then says how to rebuild)."""
    missing = [rel for rel in JAX_MODULES if str(PACKAGE / rel) not in shipped.names]
    assert not missing, f"not in the wheel: {missing}"
    assert not [n for n in shipped.names if n.endswith((".cpp", ".cc"))]
    handlers = [n for n in shipped.names if n.endswith("libecgemm_jax.so")]
    jax_importable = importlib.util.find_spec("jax") is not None
    if handlers:
        assert handlers == [str(PACKAGE / JAX_HANDLER)], handlers
        data = shipped.read(handlers[0])
        dynamic = _dynamic_section(data, tmp_path)
        assert "libecgemm.so" in dynamic["NEEDED"], dynamic
        assert not [lib for lib in dynamic["NEEDED"] if lib.startswith("libcudart")], dynamic
        exported = _exported_functions(data, tmp_path)
        assert set(JAX_HANDLER_SYMBOLS) <= exported, exported
        if jax_importable:
            assert _jax_import_error() == ""
    else:
        error = _jax_import_error()
        if jax_importable:
            assert "built without its XLA FFI handler" in error, error
            assert "ECGEMM_XLA_FFI_INCLUDE_DIR" in error and "--no-build-isolation" in error
        else:
            assert "ecgemm.jax needs JAX" in error, error


def _exported_functions(data: bytes, tmp_path: Path) -> set:
    readelf = shutil.which("readelf")
    if readelf is None:
        pytest.skip("readelf (binutils) not found")
    path = tmp_path / "exports.so"
    path.write_bytes(data)
    out = subprocess.run([readelf, "--dyn-syms", "-W", str(path)], capture_output=True,
                         text=True, check=True).stdout
    return {line.split()[-1] for line in out.splitlines()
            if " FUNC " in line and " GLOBAL " in line and " UND " not in line}


# --- finding it: ecgemm.get_include(), get_library_dir(), python -m ecgemm --------------

def _cli(*flags: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "ecgemm", *flags], capture_output=True,
                          text=True, timeout=120, cwd=Path.home())


def test_get_include_and_get_library_dir_point_into_the_installed_package():
    import ecgemm

    include, libdir = Path(ecgemm.get_include()), Path(ecgemm.get_library_dir())
    assert (include / "ecgemm.h").is_file() and (include / "ecgemm_cblas.h").is_file()
    assert (libdir / "libecgemm.so").is_file() and (libdir / "libecgemm_blas.so").is_file()
    # The Cython declarations stay importable beside the extension (from ecgemm cimport _ecgemm).
    assert (Path(ecgemm.__file__).parent / "_ecgemm.pxd").is_file()


def test_command_line_prints_flags_and_the_cmake_prefix():
    import ecgemm

    libdir = ecgemm.get_library_dir()
    assert _cli("--cflags").stdout.split() == [f"-I{ecgemm.get_include()}"]
    assert _cli("--libs").stdout.split() == [f"-L{libdir}", f"-Wl,-rpath,{libdir}", "-lecgemm"]
    assert _cli("--cflags", "--libs").stdout.split() == \
        _cli("--cflags").stdout.split() + _cli("--libs").stdout.split()
    prefix = Path(_cli("--cmake-prefix").stdout.strip())
    assert (prefix / "lib" / "cmake" / "ecgemm" / "ecgemmConfig.cmake").is_file()


def test_preload_prints_the_interception_library_or_says_it_is_missing():
    import ecgemm

    library = Path(ecgemm.get_library_dir()) / "libecgemm_cublas.so"
    run = _cli("--preload")
    if library.is_file():
        assert run.returncode == 0 and run.stdout.strip() == str(library)
    else:
        assert run.returncode == 1 and run.stdout == ""
        assert "no libecgemm_cublas.so" in run.stderr, run.stderr
