"""tools/fit_cost_model.py without a GPU or the library: --rescale moves each kernel family's rows by one factor
(measured over estimated), the coefficient file keeps each row's fit and compounds its factor, and --holdout scores
the kept rows, a refit and a rescale on cases none of them was fitted to."""
import math
import random

import pytest

from tools import fit_cost_model as F

ONE = [1.0, 0, 0, 0, 0, 0, 0, 0]


def _point(case, row, x, us, mode="tf32tf32"):
    return {"id": case, "mode": mode, "family": row.split("/")[0], "row": row, "x": x, "us": us,
            "cublas_us": 10.0, "default_us": us}


def _features(rng):
    return [1.0, 0, rng.uniform(1, 4), rng.uniform(0, 2), rng.uniform(0, 30), 0, 0, 0]


def test_a_family_moves_by_one_factor_and_keeps_each_rows_shape():
    rng = random.Random(3)
    kept = {"simt": [1.0, 0, 2.0, 10.0, 0.5, 0, 0, 0], "simt/slim": [2.0, 0, 1.0, 14.0, 0.3, 0, 0, 0],
            "gemv/along_k": [0.5, 0, 2.0, 200.0, 0.2, 0, 0, 0]}
    truth = {"simt": 0.8, "simt/slim": 0.9, "gemv/along_k": 0.6}  # measured / estimated, per row
    points = []
    for i in range(60):
        for row, c in kept.items():
            x = _features(rng)
            noise = math.exp(rng.gauss(0, 0.05))
            points.append(_point(f"r{i}", row, x, truth[row] * noise * sum(a * b for a, b in zip(c, x))))
    coefs, quality = F.rescale(points, kept)
    simt = quality["simt"][3]
    assert quality["simt/slim"][3] == simt, "the rows of one family share its factor"
    assert simt == pytest.approx(math.sqrt(0.8 * 0.9), rel=0.03)  # the geometric mean over both rows' points
    assert quality["gemv/along_k"][3] == pytest.approx(0.6, rel=0.03)
    assert quality["simt"][4] == 120 and quality["simt"][0] == 60  # the family's points, the row's own
    for row, c in kept.items():
        factor = quality[row][3]
        assert coefs[row] == pytest.approx([factor * v for v in c])


def test_a_rescaled_line_keeps_its_fit_and_compounds_its_factor(tmp_path, monkeypatch):
    inc = tmp_path / "cost_coefficients.inc"
    inc.write_text(F.INC.read_text())
    monkeypatch.setattr(F, "INC", inc)
    kept = F.inc_coefs()
    assert set(kept) == set(F.ROWS)
    line = F.inc_lines()["simt"]
    simt_note = line.split("//", 1)[1].split("; ×")[0].strip()
    earlier = float(line.split("; ×", 1)[1].split()[0]) if "; ×" in line else 1.0
    for step, halvings in ((1, 0.5), (2, 0.25)):
        expected = earlier * halvings
        now = F.inc_coefs()
        coefs, quality = F.rescale([_point("r0", "simt", ONE, 0.5 * now["simt"][0])], now)
        F.write_inc(coefs, quality, f"run{step}", only={"simt"})
        line = F.inc_lines()["simt"]
        assert line.split("//", 1)[1].startswith(" " + simt_note + "; ×")
        assert f"× {expected:.4g} on 1 simt points of run{step}" in line
        assert F.inc_coefs()["simt"][0] == pytest.approx(halvings * kept["simt"][0], rel=1e-5)
    assert F.inc_coefs()["gemv/along_k"] == kept["gemv/along_k"], "rows not named are kept as they are"


def test_holdout_scores_each_way_on_cases_it_was_not_fitted_to():
    # The kept rows price gemv at twice its time, so they pick simt where gemv is faster; the
    # measurements say so, and a rescale fitted on the other half of the cases picks gemv.
    rng = random.Random(5)
    kept = {"simt": [1.0, 0, 1.0, 1.0, 0.1, 0, 0, 0], "gemv/along_k": [1.0, 0, 1.0, 1.0, 0.1, 0, 0, 0]}
    points = []
    for i in range(80):
        x = _features(rng)
        est = sum(a * b for a, b in zip(kept["simt"], x))
        points.append(_point(f"r{i}", "simt", x, est))
        points.append(_point(f"r{i}", "gemv/along_k", [v * 1.3 for v in x], 0.8 * est))
    lines = F.holdout(points, kept, seed=1)
    regret = {}
    for line in lines:
        cells = [c.strip() for c in line.strip("|").split("|")]
        if len(cells) == 5 and cells[1] == "tf32tf32":
            regret[cells[0]] = float(cells[3])
    assert regret["kept rows"] == pytest.approx(1 / 0.8, rel=1e-3)
    assert regret["rescaled"] == pytest.approx(1.0)
    assert "fitted on 40 cases, scored on the other 40" in lines[0]


def _run(path, gpu, families, ids):
    import gzip
    import json
    rows = [{"id": i, "m": 1, "k": 1, "n": 1, "methods": {}} for i in ids]
    with gzip.open(path, "wt") as f:
        json.dump({"env": {"gpu": gpu}, "families": families, "modes": ["tf32tf32"], "gemm": rows,
                   "batched": [{"id": "b0", "batch": 2, "m": 1, "k": 1, "n": 1, "methods": {}}]}, f)
    return path


def test_several_runs_of_one_gpu_are_fitted_as_one(tmp_path):
    first = _run(tmp_path / "a.json.gz", "H100", ["simt", "fused_mma:64"], ["r0000", "r0001"])
    second = _run(tmp_path / "b.json.gz", "H100", ["fused_mma:64", "fused_wgmma:narrow"], ["r0000"])
    merged = F.load_runs([first, second])
    assert [r["id"] for r in merged["gemm"]] == ["r0000", "r0001", "1:r0000"], "ids stay apart by run"
    assert [r["id"] for r in merged["batched"]] == ["b0", "1:b0"]
    assert merged["families"] == ["simt", "fused_mma:64", "fused_wgmma:narrow"]
    assert F.load_runs([first])["gemm"] == F.load(first)["gemm"]
    other = _run(tmp_path / "c.json.gz", "H200", ["simt"], ["r0000"])
    with pytest.raises(SystemExit, match="another GPU"):
        F.load_runs([first, other])


def test_a_row_without_coefficients_is_left_out_of_the_choice():
    # A row with too few points to fit (fewer than the features) has no coefficients in a refit;
    # the choice is made among the families that have them, not refused.
    points = [_point("r0", "simt", ONE, 2.0), _point("r0", "fused_wgmma_narrow64/tf32tf32", ONE, 1.0)]
    (row,) = F.choose(points, {"simt": [1.0] + [0] * 7})
    assert row["pick"] == row["best"] == "simt"


def test_a_time_of_another_rows_kernel_is_left_out():
    # A plain "simt" pin timed simt's 128 x 32 tile; this build plans a piped tile for it, priced on a row of its
    # own: that time prices nothing here (counted as mismatched). A plan that moved within its row keeps its time.
    class Planner:
        def plan(self, mode, family, gemm, batch):
            tile = "piped32x32" if family == "simt" else "128x32"
            return f"family=simt method=fp32 tile={tile} splits=1 workspace=0 est=1.0us", ONE

    timed = {"gpu_ms": 0.01, "route": "family=simt method=fp32 tile=128x32 splits=2 workspace=0 est=2.0us"}
    row = {"id": "b0", "m": 100, "k": 50, "n": 40, "batch": 30,
           "methods": {"cublas": {"gpu_ms": 0.01}, "tf32tf32@simt": timed, "tf32tf32@simt:slim": timed}}
    points, mismatched = F.samples({"gemm": [], "batched": [row]}, Planner())
    assert mismatched == 2 and [(p["family"], p["row"], p["same_plan"]) for p in points] == \
        [("simt:slim", "simt/slim", False)]


def test_each_plans_row_is_the_one_the_library_priced_it_with():
    # The tool names a plan's row from its text (cost_row); the library picks it from the plan and the call. Both
    # must agree, or a refit moves the wrong row: the row's coefficients times the plan's features give the
    # library's estimate (no DRAM floor on this described H100), 2-D products and batches alike.
    try:
        planner = F.Planner({"compute_capability": "9.0", "sms": 132})
    except (FileNotFoundError, OSError) as exc:
        pytest.skip(f"libecgemm not loadable: {exc}")
    coefs, rng, rows_seen = F.inc_coefs(), random.Random(7), set()
    side = lambda top: int(math.exp(rng.uniform(0, math.log(top))))  # noqa: E731
    # GEMV with a thin side of 2-4 along k, its thin operand each way (staged, or loaded where contiguous along k)
    thin = [{"m": m, "k": 3000, "n": n, "trans_a": ta, "trans_b": tb, "lda": m if ta else 3000, "ldb": 3000 if tb else n}
            for m, n in ((4096, 3), (4, 4096)) for ta in (False, True) for tb in (False, True)]
    for i in range(300 + len(thin)):
        if i >= 300:
            row = thin[i - 300]
        elif i % 2:
            row = {"m": side(256), "k": side(256), "n": side(256), "batch": rng.randint(2, 512)}
        else:
            m, k, n, ta, tb = side(8192), side(8192), side(8192), rng.random() < 0.5, rng.random() < 0.5
            row = {"m": m, "k": k, "n": n, "trans_a": ta, "trans_b": tb,
                   "lda": (m if ta else k) + rng.choice((0, 3)), "ldb": (k if tb else n) + rng.choice((0, 5))}
        gemm, batch = F.abi_call(row)
        for mode in ("tf32tf32", "halfhalf", "auto"):
            for family in (None, "simt", "gemv", "planes", "fused_wgmma", "fused_wgmma:narrow", "fused_mma:32",
                           "fused_mma:64"):
                planned = planner.plan(mode, family, gemm, batch)
                if planned is None:
                    continue
                text, x = planned
                name = F.cost_row(text, batch > 1)
                rows_seen.add(name)
                est = float(text.split(" est=")[1].rstrip("us"))
                priced = F.plan_factor(text) * sum(a * b for a, b in zip(coefs[name], x))  # AUTO's guard
                assert priced == pytest.approx(est, abs=0.051, rel=1e-3), text
    assert {"fused_mma32/tf32tf32", "fused_mma32_batched/tf32tf32", "fused_mma/tf32tf32", "fused_mma_batched/halfhalf",
            "fused_mma32_batched/halfhalf", "fused_mma/halfhalf", "gemv/along_k", "gemv/along_k_staged",
            "gemv/along_k_loaded"} <= rows_seen


def test_the_abi_call_is_the_package_s_without_its_extension():
    """Beside a bare build the fit reads ecgemm's layout modules from their sources (layout_sources): the same ABI
    call as the installed package's plan_batch for 2-D products of every transpose and padding, and batches."""
    try:
        from ecgemm._layout import plan_batch
        from ecgemm._operands import Operand
    except ImportError as exc:
        pytest.skip(f"ecgemm is not installed: {exc}")
    layout, operands = F.layout_sources()
    assert layout.__name__ != plan_batch.__module__
    rng = random.Random(11)
    for i in range(200):
        m, k, n = (rng.choice((1, 2, 7, 64, 300, 4097)) for _ in range(3))
        if i % 4 == 0:
            count = rng.randint(2, 9)
            shapes = ((count, m, k), (count, k, n), (count, m, n))
            ops = [(shape, (shape[1] * shape[2], shape[2], 1)) for shape in shapes]
        else:
            ta, tb, pa, pb = rng.random() < 0.5, rng.random() < 0.5, rng.choice((0, 3)), rng.choice((0, 5))
            ops = [((m, k), (1, m + pa) if ta else (k + pa, 1)),  # a transposed view of a padded store, or the store
                   ((k, n), (1, k + pb) if tb else (n + pb, 1)), ((m, n), (n, 1))]
        args = [(name, None, "torch", True, 0, shape, strides, False) for name, (shape, strides) in zip("abc", ops)]
        ours = layout.plan_batch(*(operands.Operand(*a) for a in args))
        theirs = plan_batch(*(Operand(*a) for a in args))
        assert tuple(ours.gemm) == tuple(theirs.gemm) and ours.count == theirs.count and ours.strides == theirs.strides
