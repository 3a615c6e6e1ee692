"""tools/device.py: argument parsing, the time limit on child processes, and the `hash`
subcommand's case list (CPU); on a GPU, every hash case runs, is deterministic and
computes the right product."""
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
SUBCOMMANDS = ("install", "suite", "sanitizer", "probe", "route-times", "hash", "ceiling", "accuracy")


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
        a, b, c_in = inputs(case)
        rows, cols, ld = case.stored("c")
        got = c.reshape(case.count, cols, ld)
        # Padding rows of C are never written.
        assert np.array_equal(got[:, :, rows:].view(np.uint32), c_in.reshape(case.count, cols, ld)[:, :, rows:]
                              .view(np.uint32)), f"{case.name}: padding of C written"
        limit = 1e-5 if case.mode in ("fp32", "tf32tf32", "halfhalf", "auto") else 2e-3
        for block, ref in _reference(case, a, b, c_in):
            res = np.linalg.norm(got[block, :, :rows].T - ref) / np.linalg.norm(ref)
            assert res < limit, f"{case.name}, product in block {block}: residual {res:.2e}"
