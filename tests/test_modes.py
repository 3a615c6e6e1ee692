"""One table of modes: ecgemm.h's enum. Every other list derives from it — libecgemm's
names (ecgemm_get_mode_name / ecgemm_get_mode_by_name), Python's ``ecgemm.MODES``, the
numerics lab, the BLAS drop-in's and the cuBLAS preload's parsers, the tests' ctypes
view — and none spells the seven names out again."""
import ctypes
import re
from pathlib import Path

import ecgemm
from ecgemm import numerics

from _capi import STATUS, load

REPO = Path(__file__).resolve().parents[1]
HEADER = {name.lower(): int(value) for name, value in
          re.findall(r"\bECGEMM_MODE_(\w+)\s*=\s*(\d+)", (REPO / "include" / "ecgemm.h").read_text())}


def test_the_library_names_every_enumerator_and_only_those():
    lib = load()
    assert sorted(HEADER.values()) == list(range(len(HEADER)))  # consecutive from 0
    for name, value in HEADER.items():
        assert lib.ecgemm_get_mode_name(value).decode() == name
        mode = ctypes.c_int(-1)
        assert lib.ecgemm_get_mode_by_name(name.upper().encode(), ctypes.byref(mode)) == 0
        assert mode.value == value
    assert lib.ecgemm_get_mode_name(len(HEADER)) is None
    assert lib.ecgemm_get_mode_name(-1) is None
    mode = ctypes.c_int(-1)
    assert lib.ecgemm_get_mode_by_name(b"tf32x3", ctypes.byref(mode)) == STATUS["INVALID_VALUE"]


def test_python_and_the_numerics_lab_take_the_library_s_list():
    assert ecgemm.MODES == tuple(sorted(HEADER, key=HEADER.get))
    assert numerics.MODES == ecgemm.MODES


def test_no_source_spells_the_mode_list_out_again():
    """A statement quoting every mode name is a second table; only the library has one."""
    names = [f'"{name}"' for name in HEADER]
    # api.cpp: the names themselves. bench/methods.py: what bench promises of each mode,
    # checked against the list below.
    allowed = {REPO / "libecgemm" / "api.cpp", REPO / "bench" / "methods.py"}
    offenders = []
    for folder in ("python", "blas", "cublas", "bench", "tools", "fortran", "libecgemm"):
        for path in (REPO / folder).rglob("*"):
            if path.suffix not in {".py", ".pyx", ".pxi", ".c", ".cpp", ".hpp", ".h", ".cu", ".f90"}:
                continue
            if path in allowed:
                continue
            statements = re.split(r"[;\n]\s*\n|\)\s*\n(?=\S)", path.read_text(errors="replace"))
            if any(all(name in block for name in names) for block in statements):
                offenders.append(str(path.relative_to(REPO)))
    assert not offenders, offenders


def test_bench_describes_every_mode_and_no_other():
    from bench.methods import CATALOG, FUSED_SUFFIX

    described = {m.name[len("ecgemm_"):] for m in CATALOG
                 if m.name.startswith("ecgemm_") and not m.name.endswith(FUSED_SUFFIX)}
    assert described == set(ecgemm.MODES)
