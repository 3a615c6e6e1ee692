"""tools/device.py: argument parsing, the time limit on child processes, the `hash`
subcommand's case list and its harness against a NumPy stand-in for the C ABI (CPU); on a
GPU, every hash case runs, is deterministic and computes the right product."""
import ctypes
import os
import subprocess
import sys
import time

import numpy as np
import pytest

from _capi import MODES
from tools import device, output_hash
from tools.output_hash import FAMILIES, FORMS, LAYOUTS, TC_MODES, cases, inputs

ROOT = device.ROOT
SUBCOMMANDS = ("install", "suite", "sanitizer", "probe", "route-times", "hash", "ceiling", "accuracy", "random-ab")


def test_help_runs_without_a_gpu_and_lists_every_subcommand():
    out = subprocess.run([sys.executable, str(ROOT / "tools" / "device.py"), "--help"], capture_output=True,
                         text=True, cwd="/", timeout=60)
    assert out.returncode == 0, out.stderr
    for name in SUBCOMMANDS:
        assert f"\n    {name}" in out.stdout


@pytest.mark.parametrize("argv,expected", [
    (["install"], {"archs": "90a-real", "log": "build.txt"}),
    (["install", "--archs", "90-real,80-real", "--timeout", "60"], {"archs": "90-real,80-real", "timeout": 60.0}),
    (["suite", "--properties", "gpu-long"], {"properties": "gpu-long", "log": "pytest.txt"}),
    (["sanitizer", "--tools", "racecheck", "--hash", "--family", "fused_mma"],
     {"tools": "racecheck", "hash": True, "family": "fused_mma"}),
    (["probe", "--shapes", "64,8192,8192", "--modes", "tf32tf32"], {"shapes": "64,8192,8192", "modes": "tf32tf32"}),
    (["route-times", "--routes", "default,fused_mma", "--env", "ECGEMM_SERIAL_LAUNCHES=1", "--layouts", "NN,TT",
      "--pad", "1"], {"routes": "default,fused_mma", "env": "ECGEMM_SERIAL_LAUNCHES=1", "layouts": "NN,TT", "pad": 1}),
    (["hash", "--family", "gemv", "--mode", "fp32,auto", "--list"], {"family": "gemv", "mode": "fp32,auto",
                                                                     "list": True}),
    (["ceiling", "--sizes", "8192"], {"sizes": "8192"}),
    (["accuracy", "--ks", "256"], {"ks": "256"}),
    (["random-ab", "--sample=--seed 33 --max-width 4", "--order", "new,base"],
     {"sample": "--seed 33 --max-width 4", "order": "new,base", "base": ".baseline", "held_out": ""}),
])
def test_each_subcommand_parses_its_options(argv, expected):
    args, extra = device.parse(argv)
    assert extra == []
    assert args.command == argv[0]
    for key, value in expected.items():
        assert getattr(args, key) == value, key


def test_suite_and_sanitizer_forward_pytest_arguments_others_refuse_them():
    _, extra = device.parse(["suite", "--tail", "5", "-x", "-k", "split and not auto", "tests/test_c_abi_gpu.py"])
    assert extra == ["-x", "-k", "split and not auto", "tests/test_c_abi_gpu.py"]
    _, extra = device.parse(["sanitizer", "--", "--log-level", "INFO", "tests/test_gemv_gpu.py"])
    assert extra == ["--log-level", "INFO", "tests/test_gemv_gpu.py"]  # `--` ends device.py's options
    for argv in (["probe", "-k", "x"], ["hash", "tests"], ["install", "--arch", "80-real"]):
        with pytest.raises(SystemExit) as exit_info:
            device.parse(argv)
        assert exit_info.value.code == 2


@pytest.mark.parametrize("argv,message", [
    (["install", "--archs", "sm_90"], "--archs takes CMake CUDA architectures"),
    (["install", "--archs", ","], "--archs takes CMake CUDA architectures"),
    (["sanitizer", "--tools", "leakcheck", "--hash"], "--tools takes"),
    (["sanitizer"], "either a pytest selection"),
    (["sanitizer", "--hash", "tests"], "either a pytest selection"),
    (["sanitizer", "--family", "simt", "tests"], "--family and --mode narrow --hash"),
    (["random-ab", "--order", "base,base"], "--order lists base and new"),
    (["random-ab", "--base", "no-such-tree"], "holds no tree to build"),
])
def test_bad_values_are_refused_before_anything_runs(argv, message, tmp_path, monkeypatch):
    monkeypatch.setenv("OUT", str(tmp_path))
    args, extra = device.parse(argv)
    with pytest.raises(SystemExit, match=message):
        args.fn(args, extra)
    assert not (tmp_path / "build.txt").exists()


def test_a_child_past_its_time_limit_is_killed_with_its_group(tmp_path, monkeypatch):
    monkeypatch.setenv("OUT", str(tmp_path))
    # The child starts a grandchild that would outlive a plain kill of the child.
    script = "import subprocess, sys, time; subprocess.Popen([sys.executable, '-c', 'import time; " \
             "time.sleep(60)']); print('started', flush=True); time.sleep(60)"
    start = time.monotonic()
    rc = device.run_logged([sys.executable, "-c", script], "hung.txt", 2, tail=0)
    assert rc == device.TIMEOUT_EXIT
    assert time.monotonic() - start < 30
    log = (tmp_path / "hung.txt").read_text()
    assert "started" in log and "killed after 2 s" in log
    assert device.run_logged([sys.executable, "-c", "print('fine')"], "ok.txt", 30, tail=0) == 0


# --- the hash case list -------------------------------------------------------------


def test_cases_cover_every_family_mode_layout_and_batch_form():
    all_cases = cases()
    assert {c.family for c in all_cases} == set(FAMILIES)
    assert {c.mode for c in all_cases} == set(MODES)
    assert {c.form for c in all_cases} == set(FORMS)
    for family, spec in FAMILIES.items():
        mine = [c for c in all_cases if c.family == family]
        combos = {(c.mode, c.transa, c.transb, c.pad, c.form, (c.m, c.n, c.k)) for c in mine}
        assert len(combos) == len(mine), f"{family}: a case is listed twice"
        assert combos == {(mode, ta, tb, pad, form, shape) for mode in spec.modes for ta, tb, pad in LAYOUTS
                          for form in spec.forms for shape in spec.shapes}
        assert max(c.k for c in mine) >= 1000 and min(c.k for c in mine) <= 128, f"{family}: split-K both ways"
    # Every Tensor Core method on each Tensor Core family, FP32 only on the FP32 kernels,
    # batches on every family that takes them.
    for family in ("planes", "fused_wgmma", "fused_mma"):
        assert set(FAMILIES[family].modes) == set(TC_MODES)
    assert {c.family for c in all_cases if c.mode == "fp32"} == {"simt", "gemv"}
    assert {c.family for c in all_cases if c.form != "single"} == {"fused_wgmma", "fused_mma", "simt"}
    assert {(c.transa, c.transb) for c in all_cases} == {("N", "N"), ("N", "T"), ("T", "N"), ("T", "T")}
    assert any(c.pad % 4 for c in all_cases), "no case with unaligned rows"


def test_only_the_gemv_cases_have_a_gemv_like_shape():
    # One side of C at most 4 wide goes to the GEMV kernels in the old builds whatever the
    # other pins say, so a case meant for another family must not have that shape; the
    # GEMV cases put the thin side on m and on n.
    for c in cases():
        assert (min(c.m, c.n) <= 4) == (c.family == "gemv"), c.name
    assert {c.m <= 4 for c in cases(["gemv"])} == {True, False}


def test_case_names_and_seeds_are_unique_and_stable():
    all_cases = cases()
    assert len({c.name for c in all_cases}) == len(all_cases)
    assert len({c.seed for c in all_cases}) == len(all_cases)
    first = all_cases[0]
    assert first.seed == output_hash.Case(**first.__dict__).seed  # a function of the name alone


def test_inputs_are_deterministic_padded_with_nan_and_distinct_per_case():
    padded = next(c for c in cases(["simt"], ["halfhalf"]) if c.pad and c.form == "pointers")
    other = next(c for c in cases(["simt"], ["halfhalf"]) if not c.pad and c.form == "pointers")
    first, again = inputs(padded), inputs(padded)
    for x, y, operand in zip(first, again, "abc"):
        assert np.array_equal(x.view(np.uint32), y.view(np.uint32))
        rows, cols, ld = padded.stored(operand)
        assert x.size == padded.count * cols * ld
        blocks = x.reshape(padded.count, cols, ld)
        assert np.isnan(blocks[:, :, rows:]).all()
        body = blocks[:, :, :rows]
        assert np.isfinite(body).all() and (np.abs(body) <= 1).all()
    assert not np.array_equal(inputs(other)[0][:100], first[0][:100])


def test_filters_and_unknown_names():
    assert {c.family for c in cases(["gemv", "planes"])} == {"gemv", "planes"}
    assert {c.mode for c in cases(modes=["fp32"])} == {"fp32"}
    assert cases(["planes"], ["fp32"]) == []  # planes never run FP32
    with pytest.raises(ValueError, match="unknown family"):
        cases(["wgmma"])
    with pytest.raises(ValueError, match="unknown mode"):
        cases(modes=["bf16"])


def test_list_prints_the_case_names_without_a_gpu(capsys):
    assert device.main(["hash", "--list", "--family", "fused_mma"]) == 0
    assert capsys.readouterr().out.split() == [c.name for c in cases(["fused_mma"])]


class FakeLibrary:
    """libecgemm's C ABI as the hash harness calls it, on host memory, with NumPy products:
    checks the harness's layouts, strides, pointer arrays and pins without a GPU."""

    def __init__(self):
        self.buffers, self.families = [], []
        def fn(f):
            return type("Fn", (), {"__call__": lambda self, *a: f(*a)})()
        for name, f in (("ecgemm_device_malloc", self._malloc), ("ecgemm_device_free", lambda p: 0),
                        ("ecgemm_memcpy_to_device", self._copy), ("ecgemm_memcpy_to_host", self._copy),
                        ("ecgemm_device_synchronize", lambda: 0), ("ecgemm_create", lambda h: 0),
                        ("ecgemm_destroy", lambda h: 0), ("ecgemm_set_mode", lambda h, m: 0),
                        ("ecgemm_sgemm", self._single), ("ecgemm_sgemm_strided_batched", self._strided),
                        ("ecgemm_sgemm_batched", self._pointers)):
            setattr(self, name, fn(f))

    def _malloc(self, out, size):
        buf = ctypes.create_string_buffer(size)
        self.buffers.append(buf)
        out._obj.value = ctypes.addressof(buf)
        return 0

    @staticmethod
    def _copy(dst, src, size):
        ctypes.memmove(dst, src, size)
        return 0

    @staticmethod
    def _floats(ptr, count):
        return np.ctypeslib.as_array(ctypes.cast(ptr, ctypes.POINTER(ctypes.c_float)), (count,))

    def _gemm(self, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc):
        def matrix(ptr, ld, rows, cols):  # column-major rows x cols
            return self._floats(ptr, ld * cols).reshape(cols, ld)[:, :rows].T
        op_a = matrix(a, lda, *((m, k) if ta == 0 else (k, m)))
        op_b = matrix(b, ldb, *((k, n) if tb == 0 else (n, k)))
        op_a, op_b = (op_a if ta == 0 else op_a.T), (op_b if tb == 0 else op_b.T)
        c_view = self._floats(c, ldc * n).reshape(n, ldc)
        alpha, beta = ctypes.c_float.from_address(alpha).value, ctypes.c_float.from_address(beta).value
        product = alpha * (op_a.astype(np.float64) @ op_b) + beta * c_view[:, :m].T
        c_view[:, :m] = product.T.astype(np.float32)

    def _single(self, h, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc):
        self.families.append(os.environ.get("ECGEMM_FAMILY"))
        self._gemm(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
        return 0

    def _strided(self, h, ta, tb, m, n, k, alpha, a, lda, sa, b, ldb, sb, beta, c, ldc, sc, count):
        for z in range(count):
            self._gemm(ta, tb, m, n, k, alpha, a + 4 * z * sa, lda, b + 4 * z * sb, ldb, beta, c + 4 * z * sc, ldc)
        return 0

    def _pointers(self, h, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, count):
        ptrs = [np.ctypeslib.as_array(ctypes.cast(p, ctypes.POINTER(ctypes.c_uint64)), (count,)) for p in (a, b, c)]
        for z in range(count):
            self._gemm(ta, tb, m, n, k, alpha, int(ptrs[0][z]), lda, int(ptrs[1][z]), ldb, beta, int(ptrs[2][z]), ldc)
        return 0


def test_the_harness_lays_out_every_form_as_blas_reads_it(monkeypatch):
    monkeypatch.setenv("ECGEMM_TC_KERNEL", "planes")  # a pin of the caller's, restored after
    monkeypatch.delenv("ECGEMM_FAMILY", raising=False)
    lib = FakeLibrary()
    # Every family, batch form and layout, on the short k (cheap in NumPy).
    some = [c for c in cases(modes=["tf32tf32", "fp32"]) if c.k <= 128]
    for case, status, c in output_hash.run_cases(some, lib):
        assert status == 0
        _check_against_reference(case, c, limit=1e-6)
    assert set(lib.families) == set(FAMILIES)
    assert os.environ["ECGEMM_TC_KERNEL"] == "planes" and "ECGEMM_FAMILY" not in os.environ


# --- on a GPU -----------------------------------------------------------------------


def _reference(case, a, b, c):
    """alpha * op(A) op(B) + beta * C per product, float64, in the order the calls index them."""
    out = []
    for z in range(case.count):
        block = case.count - 1 - z if case.form == "pointers" else z
        mats = []
        for operand, x, trans in (("a", a, case.transa), ("b", b, case.transb), ("c", c, "N")):
            rows, cols, ld = case.stored(operand)
            m = x.reshape(case.count, cols, ld)[block, :, :rows].T.astype(np.float64)
            mats.append(m.T if trans == "T" else m)
        out.append((block, output_hash.ALPHA * mats[0] @ mats[1] + output_hash.BETA * mats[2]))
    return out


def _check_against_reference(case, c, limit):
    """C as a call left it: every product within `limit` of FP64, C's padding rows untouched."""
    a, b, c_in = inputs(case)
    rows, cols, ld = case.stored("c")
    got, before = c.reshape(case.count, cols, ld), c_in.reshape(case.count, cols, ld)
    assert np.array_equal(got[:, :, rows:].view(np.uint32), before[:, :, rows:].view(np.uint32)), \
        f"{case.name}: padding of C written"
    for block, ref in _reference(case, a, b, c_in):
        res = np.linalg.norm(got[block, :, :rows].T - ref) / np.linalg.norm(ref)
        assert res < limit, f"{case.name}, product in block {block}: residual {res:.2e}"


@pytest.mark.gpu
def test_every_hash_case_runs_deterministically_and_computes_the_product(monkeypatch):
    monkeypatch.setenv("ECGEMM_TC_KERNEL", "planes")  # the caller's pin, restored after the run
    monkeypatch.delenv("ECGEMM_CORRECTED_ROUTE", raising=False)
    all_cases = cases()
    first = list(output_hash.run_cases(all_cases))
    assert os.environ["ECGEMM_TC_KERNEL"] == "planes" and "ECGEMM_CORRECTED_ROUTE" not in os.environ
    again = {case.name: c for case, _, c in output_hash.run_cases(all_cases)}
    for case, status, c in first:
        assert status == 0, f"{case.name}: status {status}"
        assert output_hash.digest(c) == output_hash.digest(again[case.name]), f"{case.name}: not deterministic"
        _check_against_reference(case, c, limit=1e-5 if case.mode in ("fp32", "tf32tf32", "halfhalf", "auto")
                                 else 2e-3)
