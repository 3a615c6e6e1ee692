"""CPU tests of bench/'s pure-Python parts: seeded inputs, timing plans, validity guards, the report, JSON,
the command line and the plots (on synthetic results). No GPU and no torch needed."""
import json
import math
import sys
from dataclasses import asdict
from types import SimpleNamespace

import numpy as np
import pytest

from bench import cli, guards, inputs, report, timing
from bench.accuracy import accuracy_cases, case_inputs
from bench.methods import BY_NAME, CATALOG, SGEMM, select
from bench.profiles import HEADLINE_N, PROFILES
from bench.xla_peer import merge, worker_spec

MIB = 2**20


# ---------------------------------------------------------------------------------------------- inputs
def test_urand_is_seeded_float32_in_open_interval_and_not_zero():
    a = inputs.urand((300, 200), seed=7)
    assert a.dtype == np.float32 and a.shape == (300, 200)
    assert np.array_equal(a, inputs.urand((300, 200), seed=7))
    assert not np.array_equal(a, inputs.urand((300, 200), seed=8))
    assert a.min() >= -1 and a.max() < 1
    assert np.count_nonzero(a) > 0.99 * a.size
    assert abs(float(a.mean())) < 0.02   # centred, as uniform(-1, 1) is


@pytest.mark.parametrize("exp_type", sorted(inputs.EXP_TYPES))
def test_exp_pair_exponents_signs_and_mantissas_follow_the_paper(exp_type):
    a, b = inputs.exp_pair(exp_type, 64, 512, 32, seed=3)
    for x, (lo, hi) in zip((a, b), inputs.EXP_TYPES[exp_type]):
        assert x.dtype == np.float32
        mant, exp = np.frexp(x.astype(np.float64))   # x = mant·2^exp with |mant| in [0.5, 1)
        e = exp - 1                                   # the paper's exponent: |x| = (1 + f)·2^e
        assert e.min() == lo and e.max() == hi        # 2^15+ draws hit both ends of the range
        assert np.all(np.abs(mant) >= 0.5)            # normal numbers only, no zeros
        assert 0.45 < np.mean(x > 0) < 0.55
        frac = np.abs(x.astype(np.float64)) / np.exp2(e.astype(np.float64)) - 1
        assert 0 <= frac.min() < 0.01 and 0.99 < frac.max() < 1


def test_rows_scaled_scales_each_row_of_a_by_a_power_of_two_across_the_range():
    a, b = inputs.rows_scaled(400, 64, 8, -100, 100, seed=5)
    a0, b0 = inputs.urand_pair(400, 64, 8, seed=5)
    assert a.dtype == np.float32 and np.array_equal(b, b0)
    shift = np.log2(np.abs(a.astype(np.float64)) / np.abs(a0.astype(np.float64)))
    assert np.all(shift == shift[:, :1]) and np.all(shift == np.round(shift))   # exact, one power a row
    assert shift.min() < -90 and shift.max() > 90 and np.all(np.abs(shift) <= 100)
    assert np.array_equal(a, inputs.rows_scaled(400, 64, 8, -100, 100, seed=5)[0])


def test_outlier_rows_put_exactly_one_outlier_in_every_row():
    a, b = inputs.outlier_rows(50, 300, 7, 40, seed=2)
    a0, _ = inputs.urand_pair(50, 300, 7, seed=2)
    big = a == np.float32(2.0 ** 40)
    assert np.all(big.sum(axis=1) == 1)
    assert np.array_equal(a[~big], a0[~big]) and len(set(np.argmax(big, axis=1))) > 10


def test_auto_gate_flags_every_case_above_sgemm_and_nan():
    from bench import auto_gate
    rows = []
    for data, (res, comp) in {"a": (0.9, 1.0), "b": (1.2, 0.8), "c": (0.9, 1.3), "d": (float("nan"), 1.0)}.items():
        rows.append({"shape": [8, 16, 8], "data": data, "method": SGEMM, "residual": 1e-7, "componentwise": 1e-8,
                     "x_sgemm_residual": 1.0, "x_sgemm_componentwise": 1.0})
        rows.append({"shape": [8, 16, 8], "data": data, "method": "auto", "residual": res * 1e-7,
                     "componentwise": comp * 1e-8, "x_sgemm_residual": auto_gate.ratio(res * 1e-7, 1e-7),
                     "x_sgemm_componentwise": auto_gate.ratio(comp * 1e-8, 1e-8)})
    assert [r["data"] for r in auto_gate.misses(rows)] == ["b", "c", "d"]
    md = auto_gate.markdown({"device": "X", "rows": rows})
    assert "AUTO above SGEMM: 3 of 4 cases" in md and "| 8×16×8 | a | auto | 9.00e-08 | 0.90 |" in md
    assert auto_gate.parse_shapes("256x1024x256,64x8x32") == [(256, 1024, 256), (64, 8, 32)]
    assert {label for label, _ in auto_gate.DATA} >= {"type 2", "type 4", "rows 2^-100..2^100"}


def test_exp_rand_rejects_exponents_outside_normal_float32():
    with pytest.raises(ValueError):
        inputs.exp_rand((4, 4), -130, -100, seed=1)


def test_case_seed_is_stable_across_processes():
    # crc32 of the joined parts: a fixed value, unlike hash(), so the JAX worker rebuilds the same inputs
    assert inputs.case_seed("throughput", 8192, 8192, 8192) == 0x9feb0855
    assert inputs.case_seed("a", 1) == 0xc223a646
    assert inputs.case_seed("accuracy", 64, 256, 64, 0) != inputs.case_seed("accuracy", 64, 256, 64, 1)


def test_relative_residual_np_propagates_nan_and_inf():
    ref = np.ones((3, 3))
    assert inputs.relative_residual_np(ref * (1 + 1e-7), ref) == pytest.approx(1e-7, rel=1e-6)
    bad = ref.copy()
    bad[1, 1] = np.nan
    assert math.isnan(inputs.relative_residual_np(bad, ref))
    bad[1, 1] = np.inf
    assert math.isinf(inputs.relative_residual_np(bad, ref))


def test_accuracy_cases_cover_every_k_seed_and_exponent_type():
    p = PROFILES["default"]
    cases = list(accuracy_cases(p))
    urand = [c for c in cases if c["section"] == "accuracy"]
    exp = [c for c in cases if c["section"] == "exp_types"]
    assert sorted({c["shape"][1] for c in urand}) == [2**e for e in range(8, 21)]
    assert all(c["shape"][0] == c["shape"][2] == 64 for c in urand)
    assert len(urand) == 13 * p.acc_seeds
    assert sorted({c["exp_type"] for c in exp}) == [1, 2, 3, 4] and len(exp) == 4 * p.exp_seeds
    assert all(c["shape"] == [256, 1024, 256] for c in exp)
    assert len({c["input_seed"] for c in cases}) == len(cases)
    json.dumps(cases)   # the XLA worker receives them as JSON


def test_case_inputs_rebuild_the_same_operands():
    case = next(c for c in accuracy_cases(PROFILES["quick"]) if c["section"] == "exp_types" and c["exp_type"] == 3)
    a1, b1 = case_inputs(case)
    a2, b2 = case_inputs(json.loads(json.dumps(case)))
    assert a1.shape == (256, 1024) and b1.shape == (1024, 256)
    assert np.array_equal(a1, a2) and np.array_equal(b1, b2)


# ---------------------------------------------------------------------------------------------- timing plans
def test_rotation_sets_only_when_one_set_would_sit_in_l2():
    l2 = 50 * MIB
    assert timing.rotation_sets(12 * MIB, l2) == math.ceil(3 * 50 / 12)
    assert timing.rotation_sets(48 * MIB, l2) == 4
    assert timing.rotation_sets(192 * MIB, l2) == 1
    assert timing.rotation_sets(1024, l2) == timing.MAX_ROTATION_SETS
    with pytest.raises(ValueError):
        timing.rotation_sets(0, l2)


def test_plan_batches_keeps_at_least_ten_samples_and_batches_short_calls():
    calls, samples = timing.plan_batches(0.04, budget_s=0.4)   # a 40 µs GEMM: batch it, cap the samples
    assert calls == 25 and samples == timing.MAX_SAMPLES
    calls, samples = timing.plan_batches(170.0, budget_s=0.4)  # a 170 ms GEMM: one call, the minimum samples
    assert calls == 1 and samples == timing.MIN_SAMPLES
    calls, samples = timing.plan_batches(2.0, budget_s=0.05)    # the budget buys 25 batches of one call
    assert calls == 1 and samples == 25


def test_summarize_takes_the_median():
    t = timing.summarize([5.0, 1.0, 3.0, 100.0, 2.0], 4, 2, "cuda-events")
    assert t.median_ms == 3.0 and t.as_dict()["calls_per_sample"] == 4 and t.operand_sets == 2


def test_host_bound_when_issuing_a_call_takes_most_of_its_gpu_time():
    assert timing.summarize([0.060], 16, 13, "cuda-events", host_ms_per_call=0.055).host_bound
    assert not timing.summarize([0.060], 16, 13, "cuda-events", host_ms_per_call=0.010).host_bound
    assert not timing.summarize([0.060], 16, 13, "host-clock").host_bound


def test_time_host_times_every_batch_and_waits_for_the_last_call():
    log = []
    t = timing.time_host([lambda: log.append("a") or "a", lambda: log.append("b") or "b"],
                         wait=lambda h: log.append("wait:" + h), budget_s=0.0, warmup_s=0.0)
    assert len(t.samples_ms) == timing.MIN_SAMPLES and t.operand_sets == 2 and t.timer == "host-clock"
    assert log.count("a") > 10 and log.count("b") > 10   # both operand sets are used
    assert log[-1].startswith("wait:")


# ---------------------------------------------------------------------------------------------- guards
FP32_METHOD, ONE_PASS_METHOD = BY_NAME["ecgemm_tf32tf32"], BY_NAME["cublas_tf32"]


@pytest.mark.parametrize("residual,sgemm,status", [
    (1.5e-6, 1.6e-6, guards.OK),
    (9.0e-6, 1.0e-6, guards.OK),       # within 10× of SGEMM
    (1.9e-5, 1.6e-6, guards.FLAG),     # 12× SGEMM: XLA TF32×3 on a long square product
    (2.6e-4, 1.6e-6, guards.FLAG),     # TF32-class: a preset that fell back to one pass
    (2.6e-4, None, guards.FLAG),       # ... flagged even without an SGEMM reference
    (3.0e-6, None, guards.OK),
    (math.nan, 1e-6, guards.FAIL),
    (math.inf, 1e-6, guards.FAIL),
    (None, 1e-6, guards.ERROR),
])
def test_judge_fp32_promise(residual, sgemm, status):
    assert guards.judge(FP32_METHOD, residual, sgemm).status == status


@pytest.mark.parametrize("residual,status", [(2.6e-4, guards.OK), (3.3e-4, guards.OK), (1e-6, guards.FLAG),
                                             (1e-2, guards.FLAG), (math.nan, guards.FAIL)])
def test_judge_one_pass_promise(residual, status):
    assert guards.judge(ONE_PASS_METHOD, residual, 1e-6).status == status


def test_judge_fp16_operand_methods_outside_fp16_range():
    halfhalf = BY_NAME["ecgemm_halfhalf"]
    assert guards.judge(halfhalf, 0.9, 1e-7, exp_type=4).status == guards.RANGE
    assert guards.judge(halfhalf, 1e-3, 1e-7, exp_type=1).status == guards.FLAG     # type 1 is in range
    assert guards.judge(halfhalf, math.nan, 1e-7, exp_type=4).status == guards.FAIL  # NaN is never a range issue
    assert guards.judge(FP32_METHOD, 0.9, 1e-7, exp_type=4).status == guards.FLAG   # tf32tf32 covers FP32's range


def test_judge_markidis_must_beat_one_pass_only():
    markidis = BY_NAME["ecgemm_markidis"]
    assert guards.judge(markidis, 5e-5, 1e-7).status == guards.OK
    assert guards.judge(markidis, 1e-2, 1e-7).status == guards.FLAG


def test_worst_orders_by_severity():
    assert guards.worst([guards.OK, guards.RANGE, guards.FLAG]) == guards.FLAG
    assert guards.worst([guards.OK, guards.FAIL, guards.FLAG]) == guards.FAIL
    assert guards.worst([]) == guards.OK


# ---------------------------------------------------------------------------------------------- methods
def test_select_always_keeps_sgemm_and_filters_by_fragment():
    names = [m.name for m in select("ecgemm")]
    assert names[0] == SGEMM and all(n == SGEMM or n.startswith("ecgemm_") for n in names)
    assert len(names) == 8  # SGEMM and ecgemm's seven modes
    assert [m.name for m in select("")] == [m.name for m in CATALOG if not m.opt_in]
    assert [m.name for m in select("xla, triton")] == [SGEMM, "triton_tf32x3", "xla_tf32x3", "xla_bf16x6"]


def test_opt_in_variants_run_only_when_named_exactly():
    assert not any(m.opt_in for m in select("ecgemm_tf32tf32"))
    names = [m.name for m in select("ecgemm_tf32tf32,ecgemm_tf32tf32_fused")]
    assert names == [SGEMM, "ecgemm_tf32tf32", "ecgemm_tf32tf32_fused"]


# ---------------------------------------------------------------------------------------------- report
def _row(method, shape, ms=None, residual=None, **extra):
    row = {"method": method, "shape": list(shape), "residual": residual, **extra}
    if ms is not None:
        row.update(ms=ms, tflops=2 * shape[0] * shape[1] * shape[2] / ms / 1e9)
    return row


def synthetic_results():
    r = report.new_results(asdict(PROFILES["quick"]))
    r["env"] = {"gpu": "NVIDIA H100 80GB HBM3", "packages": {"torch": "2.11.0"}, "driver": "580.159.04"}
    r["clock_snapshots"] = [{"when": "start", "sm_clock_mhz": 1980}]
    r["methods"] = [{**m.as_dict(), "available": True, "reason": None} for m in CATALOG]
    next(m for m in r["methods"] if m["name"] == "xla_bf16x6").update(available=False, reason="jax is not importable")
    next(m for m in r["methods"] if m["name"] == "cublas_fp16")["variant"] = "float32 output (torch.mm out_dtype)"
    n3 = (HEADLINE_N,) * 3
    r["throughput"] = [
        _row(SGEMM, n3, 21.6, 1.6e-6), _row("ecgemm_tf32tf32", n3, 8.0, 1.5e-6),
        _row("ecgemm_halfhalf", n3, 6.0, 1.4e-6), _row("xla_tf32x3", n3, 10.0, 1.9e-5),
        _row("cublas_tf32", n3, 3.0, 2.6e-4), _row("triton_tf32x3", n3, 20.0, math.nan),
        _row("ecgemm_fp16", n3, None, None, error="EcgemmError: NOT_SUPPORTED"),
        _row(SGEMM, (1024,) * 3, 0.05, 4e-7), _row("ecgemm_tf32tf32", (1024,) * 3, 0.04, 4e-7, host_bound=True),
    ]
    for k, res in ((256, 1.2e-7), (1 << 20, 1.0e-6)):
        for seed in (0, 1):
            r["accuracy"] += [_row(SGEMM, (64, k, 64), residual=res, seed=seed),
                              _row("ecgemm_tf32tf32", (64, k, 64), residual=res * 0.5, seed=seed),
                              _row("triton_tf32x3", (64, k, 64), residual=res * 3, seed=seed)]
    for t, hh in ((1, 1.1e-7), (3, 2e-3)):
        r["exp_types"] += [_row(SGEMM, (256, 1024, 256), residual=1e-7, seed=0, exp_type=t),
                           _row("ecgemm_halfhalf", (256, 1024, 256), residual=hh, seed=0, exp_type=t)]
    r["energy"] = [{"method": SGEMM, "n": HEADLINE_N, "calls": 120, "seconds": 2.5, "joules": 1750.0,
                    "watts": 700.0, "gflop_per_joule": 75.4, "tflops": 52.8},
                   {"method": "ecgemm_tf32tf32", "n": HEADLINE_N, "calls": 330, "seconds": 2.5, "joules": 1650.0,
                    "watts": 660.0, "gflop_per_joule": 220.0, "tflops": 145.0}]
    return r


def test_finalize_judges_rows_and_computes_ratios_against_one_sgemm_per_shape():
    r = report.finalize(synthetic_results())
    by = {(x["method"], x["shape"][0]): x for x in r["throughput"]}
    assert by[("ecgemm_tf32tf32", HEADLINE_N)]["speedup_vs_sgemm"] == pytest.approx(21.6 / 8.0)
    assert by[("ecgemm_tf32tf32", 1024)]["speedup_vs_sgemm"] == pytest.approx(0.05 / 0.04)
    assert by[(SGEMM, HEADLINE_N)]["speedup_vs_sgemm"] == pytest.approx(1.0)
    assert by[("xla_tf32x3", HEADLINE_N)]["status"] == guards.FLAG and "12×" in by[("xla_tf32x3", HEADLINE_N)]["why"]
    assert by[("triton_tf32x3", HEADLINE_N)]["status"] == guards.FAIL
    assert by[("ecgemm_fp16", HEADLINE_N)]["status"] == guards.ERROR
    assert by[("cublas_tf32", HEADLINE_N)]["status"] == guards.OK
    assert {x["status"] for x in r["accuracy"]} == {guards.OK}
    hh3 = next(x for x in r["exp_types"] if x["method"] == "ecgemm_halfhalf" and x["exp_type"] == 3)
    assert hh3["status"] == guards.RANGE
    assert r["energy"][1]["energy_vs_sgemm"] == pytest.approx(220.0 / 75.4)


def test_headline_quotes_tf32tf32_and_halfhalf_against_sgemm_and_xla():
    h = report.finalize(synthetic_results())["headline"]
    assert h["n"] == HEADLINE_N
    assert h["ecgemm_tf32tf32"]["vs_sgemm"] == pytest.approx(2.7)
    assert h["ecgemm_tf32tf32"]["vs_xla_tf32x3"] == pytest.approx(1.25)
    assert h["ecgemm_halfhalf"]["vs_sgemm"] == pytest.approx(3.6)
    assert h["ecgemm_halfhalf"]["vs_xla_tf32x3_peer_status"] == guards.FLAG
    lines = "\n".join(report.headline_lines(report.finalize(synthetic_results())))
    assert "2.70× cuBLAS SGEMM" in lines and "1.25× XLA TF32×3 (XLA row flag: 12× SGEMM's residual)" in lines


def test_markdown_has_every_section_and_marks_flags_failures_and_ranges():
    md = report.markdown(report.finalize(synthetic_results()))
    for heading in ("## Headline", "## Throughput", "## Accuracy vs k", "## Exponent ranges", "## Energy",
                    "## Flags", "## Not measured"):
        assert heading in md
    assert "| method | shape m×k×n | ms | TFLOP/s | × SGEMM | residual | ok |" in md
    xla_line = next(line for line in md.splitlines() if line.startswith("| XLA TF32_TF32_F32_X3 | 8192"))
    assert "(2.16)" in xla_line and "FLAG: 12× SGEMM's residual" in xla_line   # flagged: not silently compared
    triton_line = next(line for line in md.splitlines() if line.startswith("| Triton tf32x3 | 8192"))
    assert "| nan |" in triton_line and "FAIL" in triton_line
    assert "ERROR: EcgemmError: NOT_SUPPORTED" in md
    type3 = next(line for line in md.splitlines() if line.startswith("| type 3"))
    assert "2.00e-03 ~" in type3
    k20 = next(line for line in md.splitlines() if line.startswith("| k = 2^20"))
    assert "1.00e-06" in k20 and "5.00e-07" in k20   # mean over the two seeds
    assert "XLA BF16_BF16_F32_X6: jax is not importable" in md
    assert "| ecgemm tf32tf32 | 1024×1024×1024 | 0.040 † |" in md and "`†` host-bound" in md
    assert "| cuBLAS SGEMM | 1024×1024×1024 | 0.050 |" in md
    assert "- cuBLAS FP16 1-pass: float32 output (torch.mm out_dtype)" in md


def test_json_round_trip_is_strict_and_keeps_non_finite_residuals(tmp_path):
    r = report.finalize(synthetic_results())
    path = tmp_path / "results.json"
    report.write_json(r, path)

    def refuse(name):
        raise AssertionError(f"non-standard JSON constant {name}")
    json.loads(path.read_text(), parse_constant=refuse)
    back = report.read_json(path)
    tri = next(x for x in back["throughput"] if x["method"] == "triton_tf32x3")
    assert math.isnan(tri["residual"])
    assert back["headline"] == json.loads(json.dumps(r["headline"]))


def test_results_dir_names_gpu_date_and_profile(tmp_path):
    assert report.results_dir(tmp_path, "NVIDIA H100 80GB HBM3", "2026-11-22", "default") == \
        tmp_path / "nvidia-h100-80gb-hbm3-2026-11-22"
    assert report.results_dir(tmp_path, "NVIDIA H200", "2026-11-22", "quick").name == "nvidia-h200-2026-11-22-quick"


def test_merge_adds_the_workers_rows_with_tflops():
    r = report.new_results({})
    merge(r, {"env": {"jax": "0.11.2"}, "throughput": [_row("xla_tf32x3", (4096,) * 3, None, 9e-6) | {"ms": 1.25}],
              "accuracy": [_row("xla_bf16x6", (64, 256, 64), residual=8e-8, seed=0)], "notes": ["n1"]})
    assert r["throughput"][0]["tflops"] == pytest.approx(2 * 4096**3 / 1.25e-3 / 1e12)
    assert r["env"]["xla"] == {"jax": "0.11.2"} and len(r["accuracy"]) == 1 and r["notes"] == ["n1"]


def test_worker_spec_follows_the_sections_and_the_measured_shapes():
    p = PROFILES["quick"]
    ctx = SimpleNamespace(profile=p, nvml=object(), l2_bytes=50 * MIB, pci_bus_id=None,
                          results={"throughput": [_row(SGEMM, p.shapes[0], 1.0, 1e-7)]})
    spec = worker_spec(ctx, ["xla_tf32x3"], ("throughput", "energy"), 100.0)
    assert spec["presets"] == {"xla_tf32x3": "TF32_TF32_F32_X3"}
    assert spec["throughput"] == [list(p.shapes[0])] and spec["accuracy"] == []
    assert spec["energy"] == {"n": p.energy_n, "seconds": p.energy_seconds}
    spec = worker_spec(ctx, ["xla_bf16x6"], ("accuracy",), 100.0)
    assert spec["energy"] is None and len(spec["accuracy"]) == len(list(accuracy_cases(p)))


# ---------------------------------------------------------------------------------------------- command line
def test_parser_profiles_and_sections():
    p = cli.build_parser()
    assert p.parse_args([]).profile == "default"
    assert p.parse_args(["--quick"]).profile == "quick"
    args = p.parse_args(["--sections", "throughput,energy", "--methods", "ecgemm", "--no-xla", "--max-minutes", "3"])
    assert args.sections == ("throughput", "energy") and args.no_xla and args.max_minutes == 3.0
    with pytest.raises(SystemExit):
        p.parse_args(["--sections", "speed"])


def test_profiles_meet_the_brief():
    d, q = PROFILES["default"], PROFILES["quick"]
    assert {s[0] for s in d.shapes if s[0] == s[1] == s[2]} == {1024, 2048, 4096, 8192, 16384}
    assert {(16384, 16384, 256), (64, 1 << 20, 64), (4096, 1024, 16384)} <= set(d.shapes)
    assert d.acc_log2_k == tuple(range(8, 21)) and d.energy_n == q.energy_n == 8192
    assert min(d.energy_seconds, q.energy_seconds) >= 2.0
    assert d.deadline_min < 9 and q.deadline_min <= 3
    assert (HEADLINE_N,) * 3 in q.shapes


def test_from_json_re_renders_without_a_gpu(tmp_path, capsys):
    saved = tmp_path / "run"
    saved.mkdir()
    report.write_json(synthetic_results(), saved / "results.json")
    assert cli.main(["--from-json", str(saved / "results.json"), "--no-plots"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("# ecgemm bench — NVIDIA H100 80GB HBM3")
    assert (saved / "table.md").read_text().strip() == out.strip()
    assert json.loads((saved / "results.json").read_text())["throughput"][0]["status"] == guards.OK


def test_measuring_without_torch_exits_with_a_reason(monkeypatch):
    monkeypatch.setitem(sys.modules, "torch", None)   # import torch now raises ImportError
    with pytest.raises(SystemExit, match="needs PyTorch with CUDA"):
        cli.main(["--quick", "--no-plots"])


def test_plots_are_written_from_synthetic_results(tmp_path):
    pytest.importorskip("matplotlib", reason="matplotlib is not installed (it is the bench extra)")
    from bench import plots
    written = plots.write_all(report.finalize(synthetic_results()), tmp_path)
    assert sorted(p.name for p in written) == sorted(plots.PLOTS)
    from PIL import Image
    for path in written:
        assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        with Image.open(path) as image:  # drawn, not blank: lines, markers and text in several colours
            assert len(image.convert("RGB").getcolors(maxcolors=1 << 16) or ()) >= 16, path.name


def test_shapes_option_replaces_the_profile_shapes_and_rejects_bad_ones():
    from bench.cli import build_parser
    args = build_parser().parse_args(["--shapes", "1x4096x4096,4096X4096X1"])
    assert args.shapes == ((1, 4096, 4096), (4096, 4096, 1))
    for bad in ("1x4096", "0x2x3", "ax2x3", ""):
        with pytest.raises(SystemExit):
            build_parser().parse_args(["--shapes", bad])


def test_batched_table_and_plot_from_rows(tmp_path):
    from bench import batched
    rows = [{"count": 8, "m": 4, "k": 5, "n": 6, "method": m, "ms": ms, "tflops": 1.0,
             "residual": 1e-7, "x_bmm": 2.0 / ms} for m, ms in
            (("torch_bmm", 2.0), ("ecgemm_tf32tf32", 1.0), ("ecgemm_halfhalf", 0.5))]
    results = {"device": "GPU", "rows": rows}
    table = batched.markdown(results)
    assert "| 8×(4×5×6) | ecgemm_halfhalf | 0.500 | 1.0 | 4.00 | 1.00e-07 | nan |" in table
    pytest.importorskip("matplotlib")
    batched.plot(results, tmp_path / "ratio.png")
    assert (tmp_path / "ratio.png").stat().st_size > 0


def test_a_saved_figure_keeps_every_drawn_colour_exactly(tmp_path):
    # bench.figures saves palette PNGs: each line's and marker's colour must survive exactly (a median cut merged a
    # legend's thin blue line into grey), and the image must stay the figure it was, only its rarest shades moved.
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from PIL import Image

    from bench import figures

    colours = ["#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22",
               "#17becf", "#aec7e8", "#ff9896"]
    rng = np.random.default_rng(5)
    fig, ax = plt.subplots(figsize=(8, 5))
    for i, colour in enumerate(colours):
        ax.plot(np.arange(20), rng.random(20) + i, color=colour, marker="o", label=colour)
        ax.scatter(rng.random(200) * 20, rng.random(200) * 12, color=colour, s=12, edgecolors="k", linewidths=0.5)
    ax.legend(fontsize=6)
    plain, saved = tmp_path / "plain.png", tmp_path / "saved.png"
    fig.savefig(plain, dpi=110)
    figures.save(fig, saved, dpi=110)
    plt.close(fig)
    before = np.asarray(Image.open(plain).convert("RGB")).astype(int)
    with Image.open(saved) as image:
        assert image.mode == "P"
        after = np.asarray(image.convert("RGB")).astype(int)
    assert saved.stat().st_size < plain.stat().st_size
    present = {tuple(c) for c in after.reshape(-1, 3)}
    for colour in colours:
        rgb = tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))
        assert rgb in present, colour
    assert (np.abs(after - before).max(axis=2) == 0).mean() > 0.9
