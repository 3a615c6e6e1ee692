"""bench/random (issue 25): the seeded sample, the budget rule, shards, the measurement's bookkeeping (on the CPU,
with CUDA's events faked), the report, the merge of shards and the plots. One GPU test runs a small sample."""
import itertools
import json
import math
import statistics
import time
from dataclasses import replace

import numpy as np
import pytest

from bench import guards
from bench import report as bench_report
from bench.random import cli, report, run
from bench.random import sample as smp
from bench.random.measure import CUBLAS, Measurer

MODES = ("tf32tf32", "halfhalf", "auto")
METHODS = smp.methods_of(MODES)
SEEDS = (1, 25, 2026)


@pytest.fixture(scope="module")
def samples():
    return {seed: smp.make_sample(seed, count=300, batched_count=60, budget_s=240.0) for seed in SEEDS}


def test_a_part_of_the_sample_keeps_the_same_draws_within_its_bounds(samples):
    """--max-k, --max-width: the calibration data of short-k or thin routes: the cases of the whole
    sample within the bounds, with their ids (so they line up with a run of the whole sample), and the
    bounds recorded."""
    whole = samples[25]
    assert smp.part_of(whole) == whole
    for bounds, rule in [(dict(max_k=32), lambda c: c.k <= 32),
                         (dict(max_width=4), lambda c: min(c.m, c.n) <= 4),
                         (dict(max_k=300, max_width=8), lambda c: c.k <= 300 and min(c.m, c.n) <= 8)]:
        part = smp.part_of(whole, **bounds)
        for section in ("gemm", "batched"):
            kept = getattr(part, section)
            assert kept == tuple(c for c in getattr(whole, section) if rule(c)) and kept, (bounds, section)
        assert all(part.description[name] == v for name, v in bounds.items())
        assert not set(bounds) & set(whole.description)


# ---------------------------------------------------------------------------------------------- the draws
def test_log_uniform_covers_every_octave_evenly_and_both_ends():
    rng = np.random.default_rng(0)
    draws = np.array([smp.log_uniform(rng, 1, 16384) for _ in range(30000)])
    assert draws.min() == 1 and draws.max() <= 16384
    octaves = np.bincount(np.floor(np.log2(draws)).astype(int), minlength=15)
    share = octaves[:14] / len(draws)               # 1-2, 2-4, …, 8192-16384 (16384 itself is in octave 14)
    assert np.all(np.abs(share - 1 / math.log2(16385)) < 0.01)
    assert np.count_nonzero(draws == 1) > 0.05 * len(draws)   # P(1) = 1/log2(16385) ≈ 7%
    with pytest.raises(ValueError):
        smp.log_uniform(rng, 0, 10)
    with pytest.raises(ValueError):
        smp.log_uniform(rng, 10, 9)


def test_the_sample_is_a_function_of_its_seed(samples):
    again = smp.make_sample(25, count=300, batched_count=60, budget_s=240.0)
    assert again == samples[25]
    assert samples[1].gemm != samples[25].gemm and samples[1].batched != samples[25].batched
    assert samples[25].description["seed"] == 25
    json.dumps(samples[25].description)   # recorded in results.json as it is


@pytest.mark.parametrize("seed", SEEDS)
def test_random_shapes_cover_the_ranges_asked(samples, seed):
    s = samples[seed]
    rand = [c for c in s.gemm if c.kind == "random"]
    assert len(rand) == 300 and len({c.id for c in s.gemm}) == len(s.gemm)
    sides = [x for c in rand for x in (c.m, c.k, c.n)]
    assert min(sides) == 1 and 8192 < max(sides) <= smp.MAX_SIDE
    assert any(c.k == 1 for c in rand) and any(c.m == 1 for c in rand) and any(c.n == 1 for c in rand)
    assert {c.op for c in rand} == {"NN", "NT", "TN", "TT"}
    pads = [p for c in rand for p in (c.pad_a, c.pad_b)]
    assert 0 in pads and 0.1 < np.mean([p > 0 for p in pads]) < 0.4 and max(pads) <= smp.PAD_MAX
    lds = [ld for c in rand for ld in (c.lda, c.ldb)]
    assert any(ld % 2 for ld in lds) and any(ld % 4 == 0 for ld in lds)
    for c in rand:
        assert c.lda == c.stored_a[1] + c.pad_a and c.stored_a == ((c.k, c.m) if c.trans_a else (c.m, c.k))
        assert c.ldb == c.stored_b[1] + c.pad_b and c.stored_b == ((c.n, c.k) if c.trans_b else (c.k, c.n))


@pytest.mark.parametrize("seed", SEEDS)
def test_structured_shapes_are_where_their_kind_says(samples, seed):
    by_kind = {k: [c for c in samples[seed].gemm if c.kind == k] for k in smp.STRUCTURED}
    assert {k: len(v) for k, v in by_kind.items()} == {k: v[0] for k, v in smp.STRUCTURED.items()}
    assert all(c.k <= 16 and min(c.m, c.n) >= 2048 for c in by_kind["small-k"])
    assert all(max(c.m, c.k, c.n) <= 32 for c in by_kind["tiny"])
    assert all(c.k >= smp.MAX_SIDE and max(c.m, c.n) <= 64 for c in by_kind["long-k"])
    assert max(c.k for c in by_kind["long-k"]) > smp.MAX_SIDE
    for c in by_kind["narrow"]:
        narrow = [x for x in (c.m, c.k, c.n) if 8 <= x <= 64]
        assert len(narrow) == 1 and all(x >= 2048 for x in (c.m, c.k, c.n) if x not in narrow)
    assert {min((c.m, "m"), (c.k, "k"), (c.n, "n"))[1] for c in by_kind["narrow"]} == {"m", "k", "n"}


@pytest.mark.parametrize("seed", SEEDS)
def test_batches_cover_the_ranges_asked(samples, seed):
    b = samples[seed].batched
    assert len(b) == 60
    assert all(1 <= c.batch <= smp.BATCH_MAX and max(c.m, c.k, c.n) <= smp.BATCH_SIDE_MAX for c in b)
    assert min(c.batch for c in b) <= 4 and max(c.batch for c in b) >= 2048
    assert min(min(c.m, c.k, c.n) for c in b) == 1 and max(max(c.m, c.k, c.n) for c in b) >= 256


# ---------------------------------------------------------------------------------------------- the budget rule
@pytest.mark.parametrize("budget", [240.0, 80.0, 45.0])
def test_every_case_fits_the_cap_and_the_sample_fits_the_budget(budget):
    s = smp.make_sample(7, count=300, batched_count=60, budget_s=budget)
    d = s.description
    for part, share in (("gemm", 1 - smp.BATCHED_SHARE), ("batched", smp.BATCHED_SHARE)):
        cases = getattr(s, part)
        costs = [smp.case_seconds(c, METHODS) for c in cases]
        assert max(costs) <= d[part]["cap_s"] <= budget * share * smp.MAX_CASE_SHARE
        assert sum(costs) == pytest.approx(d[part]["estimated_s"]) and sum(costs) <= budget * share
        assert all(c.device_bytes() <= smp.MEMORY_CAP_BYTES for c in cases)
    assert d["estimated_s"] <= budget


@pytest.mark.parametrize("budget", [240.0, 45.0])
def test_draws_beyond_the_cap_are_redrawn_never_shrunk(budget):
    """The sample is exactly the first draws of the seeded stream that fit the cap, and the rejects are counted."""
    s = smp.make_sample(7, count=300, batched_count=60, budget_s=budget)
    d = s.description
    stream = list(itertools.islice(smp.random_draws(7), 5000))
    kept = [c for c in stream if smp.fits(c, d["gemm"]["cap_s"], METHODS)][:300]
    assert [c for c in s.gemm if c.kind == "random"] == kept
    last = stream.index(kept[-1])
    assert d["gemm"]["rejected_draws"]["random"] == last + 1 - len(kept)
    batches = list(itertools.islice(smp.batched_draws(7), 5000))
    kept = [c for c in batches if smp.fits(c, d["batched"]["cap_s"], METHODS)][:60]
    assert list(s.batched) == kept
    assert d["batched"]["rejected_draws"]["batched"] == batches.index(kept[-1]) + 1 - len(kept)


def test_a_smaller_budget_rejects_more_draws_and_a_hopeless_one_is_an_error():
    wide, tight = (smp.make_sample(3, count=300, batched_count=60, budget_s=b).description for b in (240.0, 45.0))
    assert tight["gemm"]["cap_s"] < wide["gemm"]["cap_s"]
    assert sum(tight["gemm"]["rejected_draws"].values()) > sum(wide["gemm"]["rejected_draws"].values())
    assert sum(tight["batched"]["rejected_draws"].values()) >= sum(wide["batched"]["rejected_draws"].values())
    with pytest.raises(ValueError, match="raise --budget"):
        smp.make_sample(3, count=300, batched_count=60, budget_s=5.0)
    with pytest.raises(ValueError):
        smp.make_sample(3, count=300, budget_s=0.0)


def test_the_default_sample_is_large_and_recorded(samples):
    s = smp.make_sample()
    assert s.count >= 300 and len(s.gemm) == s.count + sum(v[0] for v in smp.STRUCTURED.values())
    assert s.description["estimated_s"] <= smp.DEFAULT_BUDGET_S
    assert "rejected and the next draw taken" in s.description["rule"]


def test_cost_grows_with_the_product_and_the_memory_traffic():
    small, big = smp.Gemm("a", "t", 64, 64, 64), smp.Gemm("b", "t", 8192, 8192, 8192)
    wide = smp.Gemm("c", "t", 16384, 1, 16384)
    for method in METHODS:
        assert smp.call_ms(small, method) < smp.call_ms(wide, method) < smp.call_ms(big, method)
    assert smp.call_ms(big, "sgemm") == pytest.approx(big.flops / (smp.RATE_TFLOPS["sgemm"] * 1e9),
                                                      rel=1e-3)
    assert smp.case_seconds(big, METHODS) > smp.case_seconds(small, METHODS) > 0


@pytest.mark.parametrize("gpu_ms", [1e-4, 0.004, 0.03, 0.3, 2.0, 40.0, 500.0])
def test_timing_plan_rounds_are_long_enough_and_bounded(gpu_ms):
    calls, rounds, reps = smp.timing_plan(gpu_ms)
    assert calls == smp.MAX_CALLS_PER_ROUND or calls * gpu_ms >= smp.ROUND_TARGET_MS
    assert calls == 1 or (calls - 1) * gpu_ms < smp.ROUND_TARGET_MS
    assert smp.MIN_ROUNDS <= rounds <= smp.MAX_ROUNDS and smp.MIN_E2E <= reps <= smp.MAX_E2E
    assert smp.prefill_ms(calls, 0.01) >= max(smp.PREFILL_MIN_MS, 2 * calls * 0.01)


# ---------------------------------------------------------------------------------------------- shards
@pytest.mark.parametrize("n", [1, 2, 3, 5])
def test_shards_partition_the_sample_in_order_and_balance_it(samples, n):
    cases = list(samples[25].gemm)
    parts = [smp.shard(cases, i, n, METHODS) for i in range(n)]
    assert sorted(c.id for p in parts for c in p) == sorted(c.id for c in cases)
    order = {c.id: i for i, c in enumerate(cases)}
    assert all([order[c.id] for c in p] == sorted(order[c.id] for c in p) for p in parts)
    loads = [sum(smp.case_seconds(c, METHODS) for c in p) for p in parts]
    assert max(loads) - min(loads) <= max(smp.case_seconds(c, METHODS) for c in cases) + 1e-9


def test_parse_shard_and_the_shards_of_a_sample(samples):
    assert smp.parse_shard("1/4") == (1, 4)
    for bad in ("4/4", "-1/2", "1", "a/b", "1/0"):
        with pytest.raises(ValueError):
            smp.parse_shard(bad)
    s = samples[1]
    whole = run.shard_cases(s, None)
    halves = [run.shard_cases(s, (i, 2)) for i in range(2)]
    assert len(halves[0][0]) + len(halves[1][0]) == len(whole[0]) == len(s.gemm)
    assert len(halves[0][1]) + len(halves[1][1]) == len(whole[1]) == len(s.batched)


# ---------------------------------------------------------------------------------------------- command line
def test_list_prints_the_shard_without_a_gpu(capsys):
    assert cli.main(["--list", "--count", "300", "--batched-count", "20", "--shard", "1/3"]) == 0
    out = capsys.readouterr().out
    s = smp.make_sample(smp.DEFAULT_SEED, 300, 20, smp.DEFAULT_BUDGET_S, cli.DEFAULT_MODES)
    gemm, batched = run.shard_cases(s, (1, 3))
    assert out.startswith(f"# seed {smp.DEFAULT_SEED}: {len(gemm)} shapes, {len(batched)} batches (shard 1/3)")
    ids = [line.split()[0] for line in out.splitlines() if not line.startswith("#")]
    assert ids == [c.id for c in gemm + batched]


@pytest.mark.parametrize("args", [["--shard", "3/3"], ["--modes", "tf32tf32,sgemm"], ["--modes", ""],
                                  ["--modes", "tf32tf32_fused"],
                                  ["--count", "-1"]])
def test_bad_arguments_are_refused(args):
    with pytest.raises(SystemExit):
        cli.build_parser().parse_args(args)


def test_a_budget_too_small_is_a_clear_exit():
    with pytest.raises(SystemExit, match="raise --budget"):
        cli.main(["--budget", "3", "--list"])


def test_merging_several_results_needs_out(tmp_path):
    with pytest.raises(SystemExit, match="needs --out"):
        cli.main(["--from-json", str(tmp_path / "a.json"), str(tmp_path / "b.json")])


# ---------------------------------------------------------------------------------------------- measurement (CPU)
class FakeEvent:
    """CUDA events on the host clock: the measurement's bookkeeping runs on the CPU."""

    def __init__(self, enable_timing=True):
        self.t = None

    def record(self):
        self.t = time.perf_counter()

    def synchronize(self):
        pass

    def elapsed_time(self, end):
        return (end.t - self.t) * 1e3


class FakeEcgemm:
    """ecgemm.matmul as torch's product, except: 'halfhalf' reads the whole stored rows of A (padding included),
    'auto' perturbs its result (a one-pass-class error)."""

    def __init__(self, torch):
        self.torch = torch
        self.plans = []

    def matmul(self, a, b, *, out, mode):
        torch = self.torch
        if mode == "halfhalf" and a.dim() == 2 and a.stride(1) == 1 and a.stride(0) > a.shape[1]:
            full = torch.as_strided(a, (a.shape[0], a.stride(0)), (a.stride(0), 1))
            wide_b = torch.cat([b, torch.ones(a.stride(0) - a.shape[1], b.shape[1])])
            return torch.matmul(full, wide_b, out=out)
        torch.matmul(a, b, out=out)
        if mode == "auto":
            out.mul_(1 + 2.0 ** -11)
        return out

    def explain(self, a, b, *, mode=None):
        self.plans.append(mode)
        return f"family={'gemv' if min(a.shape[-2], b.shape[-1]) == 1 else 'planes'} method={mode} tile=64x64"


@pytest.fixture
def cpu_measurer(monkeypatch):
    torch = pytest.importorskip("torch")
    monkeypatch.setattr(torch.cuda, "Event", FakeEvent)
    monkeypatch.setattr(torch.cuda, "synchronize", lambda: None)
    monkeypatch.setattr(torch.cuda, "_sleep", lambda cycles: None)
    monkeypatch.setattr(torch.cuda, "empty_cache", lambda: None)
    monkeypatch.setattr("bench.random.measure.set_tf32", lambda torch, on: None)
    fake = FakeEcgemm(torch)
    return torch, fake, Measurer(torch, fake, MODES, positive=False, seed=11, device="cpu")


@pytest.mark.parametrize("trans_a,trans_b,pad_a,pad_b", [(False, False, 0, 0), (True, False, 3, 0),
                                                         (False, True, 0, 5), (True, True, 1, 2)])
def test_operands_have_the_layout_of_the_case_and_nan_padding(cpu_measurer, trans_a, trans_b, pad_a, pad_b):
    torch, _, m = cpu_measurer
    case = smp.Gemm("x", "random", 5, 7, 3, trans_a, trans_b, pad_a, pad_b)
    a, b = m.gemm_operands(case)
    assert a.shape == (5, 7) and b.shape == (7, 3)
    assert a.stride() == ((1, case.lda) if trans_a else (case.lda, 1))
    assert b.stride() == ((1, case.ldb) if trans_b else (case.ldb, 1))
    for x, stored, pad in ((a, case.stored_a, pad_a), (b, case.stored_b, pad_b)):
        storage = torch.as_strided(x, (stored[0], stored[1] + pad), (stored[1] + pad, 1))
        assert torch.isnan(storage[:, stored[1]:]).all() and not torch.isnan(x).any()
        assert -1 <= x.min() and x.max() < 1 and x.min() < 0 < x.max()
    a2, b2 = m.gemm_operands(case)
    assert torch.equal(a, a2) and torch.equal(b, b2)
    assert not torch.equal(a, m.gemm_operands(replace(case, id="y"))[0])


def test_positive_inputs_are_positive(cpu_measurer):
    torch, fake, _ = cpu_measurer
    m = Measurer(torch, fake, MODES, positive=True, seed=11, device="cpu")
    a, b = m.batched_operands(smp.Batch("b", 3, 4, 5, 6))
    assert a.shape == (3, 4, 5) and b.shape == (3, 5, 6) and a.min() >= 0 and b.min() >= 0 and a.max() > 0


def test_a_case_records_every_method_and_the_report_judges_it(cpu_measurer):
    torch, fake, m = cpu_measurer
    cases = [smp.Gemm("g0", "random", 33, 17, 9, False, True, 4, 2), smp.Gemm("g1", "tiny", 1, 5, 6)]
    rows = [m.gemm_case(c) for c in cases] + [m.batched_case(smp.Batch("b0", 4, 6, 5, 3))]
    for row in rows:
        assert set(row["methods"]) == {CUBLAS, *MODES}
        for name, e in row["methods"].items():
            assert "error" not in e, e
            assert e["gpu_ms"] > 0 and e["e2e_ms"] > 0 and len(e["gpu_samples_ms"]) >= smp.MIN_ROUNDS
            assert e["calls_per_round"] >= 1 and e["host_ms_per_call"] > 0
            assert ("route" in e) == (name != CUBLAS)
        assert row["methods"][CUBLAS]["residual"] < 1e-6 and row["estimated_s"] > 0
    g0, g1, b0 = rows
    assert math.isnan(g0["methods"]["halfhalf"]["residual"])      # it read A's padding
    assert g1["methods"]["halfhalf"]["residual"] < 1e-6            # no padding to read
    assert g0["methods"]["auto"]["residual"] == pytest.approx(2.0 ** -11, rel=0.01)
    assert g1["methods"]["tf32tf32"]["route"].startswith("family=gemv")
    assert g0["lda"] == 21 and g0["ldb"] == 19 and g0["op"] == "NT" and b0["batch"] == 4
    results = run.new_results(smp.make_sample(11, count=300, batched_count=10), None, False)
    results["gemm"], results["batched"] = rows[:2], rows[2:]
    report.finalize(results)
    assert g0["methods"]["halfhalf"]["status"] == guards.FAIL
    assert g0["methods"]["auto"]["status"] == guards.FLAG and g0["methods"]["tf32tf32"]["status"] == guards.OK
    assert g1["methods"]["tf32tf32"]["family"] == "gemv"


class SlowOnce:
    """A call that the host is descheduled in once, for 5 ms, on its `nth` invocation."""

    def __init__(self, nth):
        self.nth, self.calls = nth, 0

    def __call__(self):
        self.calls += 1
        if self.calls == self.nth:
            time.sleep(0.005)


def test_a_round_not_issued_within_its_sleep_is_timed_again_and_left_out(cpu_measurer):
    # The host clock stands in for the GPU's (FakeEvent) and the GPU sleep is a no-op, so a round's
    # elapsed time is its issue window: the one call descheduled for 5 ms is a paced round.
    _, _, m = cpu_measurer
    call = SlowOnce(2)
    timed = m._gpu_time(call, calls=1, rounds=5, issue_ms=0.01)
    assert timed["host_paced_rounds"] == 1
    assert len(timed["gpu_samples_ms"]) == 5 and max(timed["gpu_samples_ms"]) < 2.0
    assert timed["gpu_ms"] < 2.0 and call.calls == 6

    def always_slow():
        time.sleep(0.0005)

    timed = m._gpu_time(always_slow, calls=1, rounds=3, issue_ms=0.0)
    # after the first slow round the sleep covers the issue (twice the longest seen): later rounds are clean
    assert timed["host_paced_rounds"] <= 1 and len(timed["gpu_samples_ms"]) == 3


def test_the_estimate_is_the_fastest_of_three_calls(cpu_measurer):
    _, _, m = cpu_measurer
    call = SlowOnce(1)
    gpu_ms, issue_ms = m._one_call(call)
    assert call.calls == 3 and gpu_ms < 2.0 and issue_ms < 2.0


def test_a_method_that_raises_is_an_error_entry_and_the_others_go_on(cpu_measurer):
    torch, fake, m = cpu_measurer

    def refuse(a, b, *, out, mode):
        if mode == "auto":
            raise RuntimeError("NOT_SUPPORTED")
        return torch.matmul(a, b, out=out)
    fake.matmul = refuse
    row = m.gemm_case(smp.Gemm("g", "random", 4, 4, 4))
    assert row["methods"]["auto"] == {"error": "RuntimeError: NOT_SUPPORTED", "route": row["methods"]["auto"]["route"]}
    assert row["methods"]["tf32tf32"]["residual"] < 1e-6


def test_without_explain_the_route_is_unknown(cpu_measurer):
    torch, _, _ = cpu_measurer

    class NoExplain:
        def matmul(self, a, b, *, out, mode):
            return torch.matmul(a, b, out=out)
    m = Measurer(torch, NoExplain(), ("tf32tf32",), positive=False, seed=1, device="cpu")
    row = m.gemm_case(smp.Gemm("g", "random", 3, 3, 3))
    assert row["methods"]["tf32tf32"]["route"] == "unknown"


# ---------------------------------------------------------------------------------------------- report
def _entry(ms, residual, route="family=planes method=x", e2e=None):
    return {"gpu_ms": ms, "e2e_ms": e2e if e2e is not None else ms + 0.02, "residual": residual, "route": route,
            "gpu_samples_ms": [ms], "calls_per_round": 1, "host_ms_per_call": 0.01, "host_paced_rounds": 0}


def synthetic_results(ratios=(0.5, 0.9, 0.96, 1.0, 2.0, 4.0), seed=25, ids=None):
    """Results whose tf32tf32 ratios to cuBLAS are `ratios`; halfhalf twice as fast; auto errors once."""
    s = smp.make_sample(seed, count=300, batched_count=20)
    r = run.new_results(s, None, False)
    r["env"] = {"gpu": "NVIDIA H200", "packages": {"torch": "2.11.0"}}
    r.update(elapsed_s=12.0, estimated_s=10.0)
    gemm = list(s.gemm)[:len(ratios)]
    for i, (case, x) in enumerate(zip(gemm, ratios)):
        route = "family=gemv method=tf32tf32" if i == 0 else "family=fused_wgmma method=tf32tf32 tile=128x128"
        methods = {CUBLAS: _entry(1.0, 4e-7), "tf32tf32": _entry(1.0 / x, 2e-7, route),
                   "halfhalf": _entry(0.5 / x, 1e-7 * (i + 1)),
                   "auto": _entry(1.0 / x, 1e-7) if i else {"error": "EcgemmError: NOT_SUPPORTED", "route": "unknown"}}
        r["gemm"].append({**case.as_dict(), "estimated_s": 0.05, "measured_s": 0.04, "methods": methods})
    for case in list(s.batched)[:3]:
        r["batched"].append({**case.as_dict(), "estimated_s": 0.05, "measured_s": 0.04,
                             "methods": {CUBLAS: _entry(2.0, 3e-7),
                                         **{m: _entry(1.0, 1e-7, "unknown") for m in MODES}}})
    if ids is not None:
        r["gemm"] = [row for row in r["gemm"] if row["id"] in ids]
    return r


def test_summary_geomeans_fractions_and_worst_cases():
    ratios = (0.5, 0.9, 0.96, 1.0, 2.0, 4.0)
    r = report.finalize(synthetic_results(ratios))
    t = r["summary"]["gemm"]["tf32tf32"]
    assert t["cases"] == 6 and t["geomean"] == pytest.approx(math.prod(ratios) ** (1 / 6))
    assert t["near"] == pytest.approx(4 / 6) and t["min"] == pytest.approx(0.5)
    assert t["min_id"] == r["gemm"][0]["id"]
    assert set(t["families"]) == {"gemv", "fused_wgmma"} and t["families"]["gemv"]["cases"] == 1
    assert r["summary"]["gemm"]["halfhalf"]["geomean"] == pytest.approx(2 * t["geomean"])
    assert r["summary"]["gemm"]["halfhalf"]["residual_ratio_max"] == pytest.approx(6e-7 / 4e-7)
    assert r["summary"]["gemm"]["tf32tf32"]["residual_ratio_median"] == pytest.approx(0.5)
    auto = r["summary"]["gemm"]["auto"]
    assert auto["cases"] == 5 and auto["errors"] == 1
    assert r["summary"]["batched"]["tf32tf32"]["geomean"] == pytest.approx(2.0)
    order = [e["x_cublas"] for _, e in report.worst(r, "gemm", "tf32tf32", 3)]
    assert order == pytest.approx([0.5, 0.9, 0.96])
    assert t["geomean_e2e"] is not None and 0 < t["near_e2e"] <= 1


def test_auto_against_tf32tf32_counts_every_case_both_ran():
    r = report.finalize(synthetic_results((0.5, 0.9, 0.96, 1.0, 2.0, 4.0)))
    for row, x in zip(r["gemm"][1:], (1.25, 1.0, 0.97, 0.5, 2.0)):  # auto errs on the first case
        row["methods"]["auto"]["gpu_ms"] = row["methods"]["tf32tf32"]["gpu_ms"] / x
    g = report.against(r, "gemm", "auto", "tf32tf32")
    assert g["cases"] == 5 and g["geomean"] == pytest.approx((1.25 * 0.97 * 0.5 * 2.0) ** (1 / 5))
    assert g["at_least_1"] == pytest.approx(3 / 5) and g["near"] == pytest.approx(4 / 5)
    assert g["min"] == pytest.approx(0.5) and g["min_id"] == r["gemm"][4]["id"]
    line = next(x for x in report.markdown(r).splitlines() if x.startswith("| auto | tf32tf32 | 5 |"))
    assert "| 60% | 80% |" in line and f"0.50 ({r['gemm'][4]['id']})" in line
    assert report.against(r, "gemm", "auto", "fp32") == {"cases": 0}


def test_route_family_reads_the_explain_string():
    assert report.route_family("family=fused_mma method=tf32tf32 tile=64x64 splits=4 workspace=0") == "fused_mma"
    assert report.route_family("unknown") == report.route_family(None) == report.route_family("family=") == "unknown"


def test_markdown_has_the_summary_routes_worst_shapes_and_flags():
    r = synthetic_results()
    lost = smp.Gemm("r9999", "random", 16384, 9000, 16384)
    r["gemm"].append({**lost.as_dict(), "error": "OutOfMemoryError: CUDA out of memory", "methods": {}})
    report.finalize(r)
    assert r["summary"]["gemm"]["tf32tf32"]["errors"] == 1 and r["summary"]["gemm"]["auto"]["errors"] == 2
    md = report.markdown(r)
    for text in ("# Random shapes — ecgemm against cuBLAS, NVIDIA H200", "## 2-D products against cuBLAS SGEMM",
                 "## Batches against cuBLAS strided-batched SGEMM", "By route:", "### gemm: the 15 slowest against "
                 "cuBLAS, tf32tf32", "## Flags", "seed 25", "estimated 10 s, took 12 s", "rejected and the next draw"):
        assert text in md, text
    first = r["gemm"][0]
    worst = next(line for line in md.splitlines() if line.startswith(f"| {first['id']} |") and "`family=gemv" in line)
    assert "| 0.50 |" in worst and f"| {first['lda']}, {first['ldb']} |" in worst
    assert "auto: ERROR EcgemmError: NOT_SUPPORTED" in md
    assert "- gemm r9999 16384×9000×16384: ERROR OutOfMemoryError" in md
    tf32 = next(line for line in md.splitlines() if line.startswith("| tf32tf32 | 6 |"))
    assert "| 67% |" in tf32 and f"0.50 ({first['id']})" in tf32 and tf32.endswith("| 0 / 1 |")


def test_json_round_trip_and_re_render_from_json(tmp_path, capsys):
    r = synthetic_results()
    r["gemm"][1]["methods"]["tf32tf32"]["residual"] = math.nan
    folder = tmp_path / "run"
    folder.mkdir()
    bench_report.write_json(r, folder / "results.json")
    assert cli.main(["--from-json", str(folder / "results.json"), "--no-plots"]) == 0
    out = capsys.readouterr().out
    assert (folder / "table.md").read_text().strip() == out.strip()
    back = bench_report.read_json(folder / "results.json")
    assert back["gemm"][1]["methods"]["tf32tf32"]["status"] == guards.FAIL
    assert back["summary"]["gemm"]["tf32tf32"]["cases"] == 6


def test_merge_joins_shards_and_refuses_mixed_or_overlapping_ones(tmp_path):
    whole = synthetic_results()
    ids = [row["id"] for row in whole["gemm"]]
    a, b = synthetic_results(ids=ids[:3]), synthetic_results(ids=ids[3:])
    b["batched"] = []
    a["shard"], b["shard"] = [0, 2], [1, 2]
    merged = report.merge([a, b])
    assert [row["id"] for row in merged["gemm"]] == ids and merged["shard"] == [[0, 2], [1, 2]]
    assert merged["elapsed_s"] == 24.0
    report.finalize(merged)
    assert merged["summary"]["gemm"]["tf32tf32"]["geomean"] == pytest.approx(
        report.finalize(synthetic_results())["summary"]["gemm"]["tf32tf32"]["geomean"])
    with pytest.raises(ValueError, match="more than one"):
        report.merge([a, synthetic_results(ids=ids[:1])])
    with pytest.raises(ValueError, match="different samples"):
        report.merge([a, synthetic_results(seed=26, ids=[])])
    other = synthetic_results(ids=ids[3:])
    other["env"]["gpu"] = "NVIDIA H100 80GB HBM3"
    with pytest.raises(ValueError, match="different GPUs"):
        report.merge([a, other])
    for i, part in enumerate((a, b)):
        bench_report.write_json(part, tmp_path / f"{i}.json")
    assert cli.main(["--from-json", str(tmp_path / "0.json"), str(tmp_path / "1.json"), "--out",
                     str(tmp_path / "merged"), "--no-plots"]) == 0
    assert len(bench_report.read_json(tmp_path / "merged" / "results.json")["gemm"]) == len(ids)


def test_plots_are_written_from_synthetic_results(tmp_path):
    pytest.importorskip("matplotlib", reason="matplotlib is not installed (it is the test extra)")
    from bench.random import plots
    written = plots.write_all(report.finalize(synthetic_results()), tmp_path)
    assert sorted(p.name for p in written) == sorted(plots.PLOTS)
    for path in written:
        data = path.read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 10_000
    r = report.finalize(synthetic_results())
    r["gemm"] = []
    assert [p.name for p in plots.write_all(r, tmp_path)] == ["batched_ratio.png"]


# ---------------------------------------------------------------------------------------------- GPU
@pytest.mark.gpu
def test_a_small_sample_runs_end_to_end_on_the_gpu(tmp_path):
    """A few random shapes, structured shapes and batches through run.run and the report: every method is
    measured, residuals are FP32-class (and within 10× cuBLAS's where C has enough elements for the ratio to
    mean something), routes are recorded."""
    s = smp.make_sample(5, count=300, batched_count=20)
    pick = [c for c in s.gemm if c.kind == "random" and c.flops < 1e10][:12] + \
        [next(c for c in s.gemm if c.kind == k) for k in smp.STRUCTURED]
    s = replace(s, gemm=tuple(pick), batched=tuple(c for c in s.batched if c.flops < 1e10)[:4])
    results = run.run(s, None, False, None, tmp_path / "results.json")
    md = cli.write_outputs(results, tmp_path, plots=False)
    assert len(results["gemm"]) == len(pick) and len(results["batched"]) == len(s.batched)
    for section in ("gemm", "batched"):
        for row in results[section]:
            for name, e in row["methods"].items():
                assert "error" not in e, (row["id"], name, e)
                assert e["gpu_ms"] > 0 and e["e2e_ms"] > 0
                if name != CUBLAS:
                    assert e["residual"] < 2.0 ** -13 and e["route"], (row["id"], name, e)
                    if row["m"] * row["n"] * row.get("batch", 1) >= 256:
                        assert e["status"] == guards.OK, (row["id"], name, e["residual"], e["why"])
    assert statistics.median(r["methods"][CUBLAS]["residual"] for r in results["gemm"]) < 1e-5
    assert "## 2-D products" in md and (tmp_path / "table.md").exists()


def test_interleave_spreads_each_list_over_the_run():
    a, b = list(range(10)), ["x", "y"]
    mixed = run.interleave(a, b)
    assert sorted(x for x in mixed if isinstance(x, int)) == a and [x for x in mixed if isinstance(x, str)] == b
    assert [x for x in mixed if isinstance(x, int)] == a
    assert 1 <= mixed.index("x") <= 4 and 6 <= mixed.index("y") <= 9
    assert run.interleave([], b) == b and run.interleave(a) == a
