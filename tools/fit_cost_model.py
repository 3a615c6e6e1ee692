"""Fit the planner's cost model (libecgemm/cost_model.hpp) to a calibration run, and say how well it chooses.

A calibration run is `python -m bench.random --families simt,gemv,planes,fused_wgmma,fused_mma ...` on the GPU:
every case timed in each mode with each kernel family pinned where it can run it. Here, on any machine (no GPU):
each pinned plan's cost features come from the library itself (ecgemm_internal_plan_on, the planner on a
described GPU, so the features are the ones the planner computes), the coefficients of each (family, products)
row are a non-negative least-squares fit of the relative error, and the fitted model then chooses a family for
every (case, mode) the way the planner would, scored against the best family measured:

    python -m tools.fit_cost_model bench/results/<run>/results.json.gz [MORE_RUNS ...] [--write] [--report FILE]

Several runs of one GPU (e.g. the whole sample with every family, and more seeds of the products one family
takes) are fitted as one: their cases side by side, each id prefixed by its run.

--write replaces libecgemm/cost_coefficients.inc (each line naming its run); --rows R1,R2 replaces only those
rows (a row whose refit chose worse on a held-out sample keeps its earlier run). Rebuild the library to use it.

--rescale keeps each row's shape and multiplies every row of a kernel family by one factor, the geometric mean of
measured over estimated time over that family's points on this run: after a change that speeds a family up across
the board (its launches becoming programmatic dependents), one number a family moves its price against the others
without refitting the slopes, and its rows move together, so its choices between its own forms (each calibrated
head to head) stay as they were.
--holdout SEED fits on half the run's cases and scores the model's choices on the other half for the kept rows, a
refit and a rescale, so that the choice between them is made out of sample. Needs SciPy (scipy.optimize.nnls).
"""
import argparse
import ctypes
import functools
import gzip
import importlib
import json
import math
import pathlib
import random
import sys
import types
from collections import defaultdict

from tools._common import ROOT

import _capi  # noqa: E402  (tests/_capi.py: finds libecgemm)

FEATURES = ("1", "more launches", "waves", "serial", "megabytes", "chain", "cluster", "packed")
ROWS = ("simt", "simt/slim", "simt/stream", "simt/dot", "simt/strips", "gemv/along_k", "gemv/along_len", "planes/tf32tf32", "planes/halfhalf", "planes/auto", "fused_wgmma/tf32tf32",
        "fused_wgmma/halfhalf", "fused_mma/tf32tf32", "fused_mma/halfhalf", "fused_mma32/tf32tf32",
        "fused_mma32/halfhalf", "fused_mma32/fp32", "gemv/along_len_cta", "gemv/lines", "simt/thin",
        "fused_wgmma_narrow/tf32tf32", "fused_wgmma_narrow/halfhalf", "fused_wgmma_general/tf32tf32",
        "fused_wgmma_general/halfhalf", "fused_wgmma_narrow_general/tf32tf32",
        "fused_wgmma_narrow_general/halfhalf", "fused_wgmma_narrow64/tf32tf32", "fused_wgmma_narrow64/halfhalf",
        "fused_wgmma_narrow64_general/tf32tf32", "fused_wgmma_narrow64_general/halfhalf",
        "fused_mma32_batched/tf32tf32", "gemv/along_k_staged", "fused_mma_batched/halfhalf",
        "fused_mma32_batched/halfhalf", "gemv/along_k_loaded", "simt/stream_batched",
        "simt/strips_batched", "simt/piped32x32", "simt/piped32x64", "simt/piped64x64",
        "simt/piped64x128", "simt/piped32x32_batched", "simt/piped32x64_batched", "simt/piped64x64_batched",
        "simt/piped64x128_batched")  # CostRow's order
# simt's tiles by the row that prices them (planner.cpp: cost_row).
SIMT_ROWS = {"128x32": "simt/slim", "32x128": "simt/slim", "256x16": "simt/slim", "16x256": "simt/slim",
             "thin_m": "simt/thin", "thin_n": "simt/thin", "stream": "simt/stream", "dot": "simt/dot",
             "strips": "simt/strips", "piped32x32": "simt/piped32x32", "piped32x64": "simt/piped32x64",
             "piped64x32": "simt/piped32x64", "piped64x64": "simt/piped64x64", "piped64x128": "simt/piped64x128",
             "piped128x64": "simt/piped64x128"}
INC = ROOT / "libecgemm" / "cost_coefficients.inc"
# Pins of a family's forms (planner.hpp: FamilyPin), tried where the plain pin's plan is not the one timed.
FORMS = {"gemv": ("lines", "wide")}
# The opt-in shared memory per block of the GPUs the runs come from (not in the run's env).
SMEM_PER_BLOCK = {"9.0": 232448, "8.0": 166912, "8.6": 101376, "8.9": 101376, "10.0": 232448}


class Device(ctypes.Structure):
    _fields_ = [("cc_major", ctypes.c_int), ("cc_minor", ctypes.c_int), ("sm_count", ctypes.c_int),
                ("max_smem_per_block", ctypes.c_int), ("dram_gbps", ctypes.c_double)]  # 0: the fit alone, no floor


class Planner:
    """ecgemm_internal_plan_on through ctypes: a plan and its cost features, no GPU."""

    def __init__(self, env):
        self.lib = _capi.load()
        f = self.lib.ecgemm_internal_plan_on
        f.restype = ctypes.c_int
        f.argtypes = [ctypes.POINTER(Device), ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_int] + \
            [ctypes.c_int64] * 7 + [ctypes.c_float, ctypes.POINTER(ctypes.c_double), ctypes.c_char_p, ctypes.c_size_t]
        cc = str(env.get("compute_capability", "9.0"))
        major, minor = (int(x) for x in cc.split("."))
        self.device = Device(major, minor, int(env.get("sms", 132)), SMEM_PER_BLOCK.get(cc, 232448))
        self.modes = {}

    def mode(self, name):
        """The ecgemmMode_t of a mode name, as the library numbers it."""
        if name not in self.modes:
            value = ctypes.c_int()
            if self.lib.ecgemm_get_mode_by_name(name.encode(), ctypes.byref(value)) != 0:
                raise SystemExit(f"fit_cost_model: this libecgemm has no mode {name!r}")
            self.modes[name] = value.value
        return self.modes[name]

    def plan(self, mode, family, gemm, batch):
        """(plan text, features) of one family's plan for the ABI call `gemm`; None where it cannot run it."""
        x = (ctypes.c_double * len(FEATURES))()
        text = ctypes.create_string_buffer(256)
        status = self.lib.ecgemm_internal_plan_on(
            ctypes.byref(self.device), self.mode(mode), family.encode() if family else None, gemm.transa, gemm.transb,
            gemm.m, gemm.n, gemm.k, gemm.a.ld, gemm.b.ld, gemm.c.ld, batch, 0.0, x, text, len(text))
        if status != 0:
            return None
        return text.value.decode(), list(x)


def layout_sources():
    """python/ecgemm's pure-Python layout modules (_layout, _operands) read as a package of their own, without
    ecgemm/__init__.py, which loads the package's compiled extension."""
    name = "_ecgemm_sources"
    if name not in sys.modules:
        package = types.ModuleType(name)
        package.__path__ = [str(ROOT / "python" / "ecgemm")]
        sys.modules[name] = package
    return tuple(importlib.import_module(f"{name}.{m}") for m in ("_layout", "_operands"))


@functools.lru_cache(maxsize=None)
def _layout():
    """plan_batch and Operand: the installed package's, or beside a bare build (the library alone) its sources', so
    that the fit needs only libecgemm."""
    try:
        from ecgemm import _layout as layout, _operands as operands
    except ImportError:
        layout, operands = layout_sources()
    return layout.plan_batch, operands.Operand


def abi_call(row):
    """The ABI call ecgemm.matmul makes for a case of bench.random (its operands' shapes and strides)."""
    plan_batch, Operand = _layout()

    def operand(name, rows, cols, trans, ld):
        strides = (1, ld) if trans else (ld, 1)   # a transposed view of a row-major store, or the store
        return Operand(name, None, "torch", True, 0, (rows, cols), strides, False)

    if "batch" in row:  # torch.bmm operands: contiguous stacks
        m, k, n, count = row["m"], row["k"], row["n"], row["batch"]
        a = Operand("a", None, "torch", True, 0, (count, m, k), (m * k, k, 1), False)
        b = Operand("b", None, "torch", True, 0, (count, k, n), (k * n, n, 1), False)
        c = Operand("out", None, "torch", True, 0, (count, m, n), (m * n, n, 1), False)
        plan = plan_batch(a, b, c)
        return plan.gemm, plan.count
    a = operand("a", row["m"], row["k"], row["trans_a"], row["lda"])
    b = operand("b", row["k"], row["n"], row["trans_b"], row["ldb"])
    c = Operand("out", None, "torch", True, 0, (row["m"], row["n"]), (row["n"], 1), False)
    return plan_batch(a, b, c).gemm, 1


def cost_row(text, batched=False):
    """The coefficient row of a plan text: "family=planes method=auto ..." -> "planes/auto"; `batched`: the call
    is a batch of more than one product (planner.cpp: cost_row)."""
    fields = dict(t.split("=", 1) for t in text.split() if "=" in t)
    family, method = fields["family"], fields["method"]
    if family == "gemv":  # fewer than 32 lanes a line or row have rows of their own (planner.cpp: cost_row)
        if fields["layout"] == "along_k":  # "lanes=" only on the lines kernel's plans
            if "lanes" in fields:
                return "gemv/lines"
            words = text.split()
            return "gemv/along_k" + ("_staged" if "staged" in words else "_loaded" if "loaded" in words else "")
        return "gemv/along_len" + ("_cta" if fields["lanes"] != "32" else "")
    if family == "simt":  # a batch on the stream, strip or piped tiles has rows of its own
        row = SIMT_ROWS.get(fields["tile"], "simt")
        apart = fields["tile"] in ("stream", "strips") or fields["tile"].startswith("piped")
        return row + "_batched" if batched and apart else row
    if family == "fused_mma":  # a batch has rows of its own, but for the 64-wide tile's tf32tf32
        tile = "fused_mma32" if fields.get("tile") == "32x32" else "fused_mma"
        apart = batched and method in ("tf32tf32", "halfhalf") and (tile == "fused_mma32" or method == "halfhalf")
        return f"{tile}{'_batched' if apart else ''}/{method}"
    if family == "fused_wgmma":  # the narrow tiles; the general kernel (an operand off 16 bytes or copied)
        cols = fields.get("tile", "x128").split("x")[1]
        narrow = {"128": "", "64": "_narrow64"}.get(cols, "_narrow")
        general = "_general" if "general" in text.split() else ""
        return f"fused_wgmma{narrow}{general}/{method}"
    return f"{family}/{method}"


@functools.lru_cache(maxsize=None)
def cost_constant(name):
    """A constant of cost_model.hpp (kFusedWgmmaGuardCost, kFusedMmaGuardCost, kDramEfficiency), read from the source."""
    text = (ROOT / "libecgemm" / "cost_model.hpp").read_text()
    return float(text.split(f"{name} =", 1)[1].split(";", 1)[0])


def guard_cost(family="fused_wgmma"):
    """What AUTO's plans of a fused family cost over tf32tf32's row: kFusedWgmmaGuardCost or kFusedMmaGuardCost."""
    return cost_constant({"fused_wgmma": "kFusedWgmmaGuardCost", "fused_mma": "kFusedMmaGuardCost"}[family])


def plan_factor(text):
    """What the library multiplies a plan's row estimate by (planner.cpp: price): AUTO's guard on the fused families
    (their plans say wide=fp32; fused_mma's FP32 form has no guard and says method=fp32), and the plane route's
    walking mainloop (its plans say walk)."""
    fields = dict(t.split("=", 1) for t in text.split() if "=" in t)
    if fields.get("family") == "planes" and "walk" in text.split():
        return cost_constant("kPlanesWalkCost")
    if fields.get("wide") != "fp32" or fields.get("method") != "tf32tf32":
        return 1.0
    return guard_cost(fields["family"])


def samples(results, planner):
    """Every pinned measurement: dicts of case, mode, family, row, features, measured us, and the plan check.
    A plan this build prices on another row than the one the run timed is counted as mismatched and left out."""
    out, mismatched = [], 0
    for section in ("gemm", "batched"):
        for row in results[section]:
            if "error" in row:
                continue
            gemm, batch = abi_call(row)
            for name, entry in row["methods"].items():
                if "@" not in name or "gpu_ms" not in entry:
                    continue
                mode, family = name.split("@")
                planned = planner.plan(mode, family, gemm, batch)
                if planned is None:
                    mismatched += 1
                    continue
                text, x = planned
                recorded = entry.get("route", "").split(" est=")[0]
                same = text.split(" est=")[0] == recorded
                # A family that offers several forms may now price a different one than the run
                # timed under its plain pin: the form's own pin gives the timed plan's features.
                for form in FORMS.get(family, ()) if not same else ():
                    other = planner.plan(mode, f"{family}:{form}", gemm, batch)
                    if other and other[0].split(" est=")[0] == recorded:
                        (text, x), same = other, True
                        break
                mismatched += not same
                # The time of another row's kernel (a pin that now plans another tile) prices nothing here.
                if not same and recorded and cost_row(recorded, batch > 1) != cost_row(text, batch > 1):
                    continue
                out.append({"id": row["id"], "section": section, "mode": mode, "family": family,
                            "plan": text.split(" est=")[0], "row": cost_row(text, batch > 1), "x": x,
                            "factor": plan_factor(text), "us": entry["gpu_ms"] * 1e3, "same_plan": same,
                            "cublas_us": row["methods"]["cublas"].get("gpu_ms", math.nan) * 1e3,
                            "default_us": row["methods"].get(mode, {}).get("gpu_ms", math.nan) * 1e3})
    return out, mismatched


def fit(points):
    """Coefficients >= 0 minimising the sum of squared relative errors, and the median |log(model/measured)|."""
    import numpy as np
    from scipy.optimize import nnls

    X = np.array([p["x"] for p in points])
    t = np.array([p["us"] / p.get("factor", 1.0) for p in points])  # in the row's own units
    coef, _ = nnls(X / t[:, None], np.ones_like(t), maxiter=10000)
    model = X @ coef
    err = np.abs(np.log(np.maximum(model, 1e-9) / t))
    return coef, float(np.median(err)), float(np.percentile(err, 90))


def family_of(row):
    """The kernel family a cost row prices: "fused_mma32/fp32" -> "fused_mma"."""
    head = row.split("/")[0]
    return next((f for f in ("fused_wgmma", "fused_mma") if head.startswith(f)), head)


def rescale(points, kept):
    """Each kept row times its family's geometric mean of measured over estimated time on `points`: (coefs,
    quality), quality with the family's factor last."""
    logs = defaultdict(list)
    for q in points:
        if q["row"] in kept:
            est = q.get("factor", 1.0) * sum(a * b for a, b in zip(kept[q["row"]], q["x"]))
            logs[family_of(q["row"])].append((q["row"], math.log(q["us"] / max(est, 1e-9))))
    coefs, quality = {}, {}
    for family, values in logs.items():
        factor = math.exp(sum(v for _, v in values) / len(values))
        for r in {r for r, _ in values}:
            err = sorted(abs(v - math.log(factor)) for row, v in values if row == r)
            coefs[r] = [factor * a for a in kept[r]]
            quality[r] = (len(err), err[len(err) // 2], err[int(0.9 * (len(err) - 1))], factor, len(values))
    return coefs, quality


def refit(points):
    """Every row with enough points fitted afresh: (coefs, quality)."""
    coefs, quality = {}, {}
    for r in ROWS:
        pts = [q for q in points if q["row"] == r]
        if len(pts) >= len(FEATURES):
            c, med, p90 = fit(pts)
            coefs[r], quality[r] = list(c), (len(pts), med, p90)
    return coefs, quality


def holdout(points, kept, seed):
    """Fit on a random half of the cases, score each way's choices on the other half (report lines)."""
    ids = sorted({p["id"] for p in points})
    train = set(random.Random(seed).sample(ids, len(ids) // 2))
    fitted = [p for p in points if p["id"] in train]
    scored = [p for p in points if p["id"] not in train]
    ways = {"kept rows": kept, "refit": refit(fitted)[0], "rescaled": rescale(fitted, kept)[0]}
    lines = [f"Held out (seed {seed}): fitted on {len(train)} cases, scored on the other {len(ids) - len(train)}.", "",
             "| way | mode | picks the best | model's pick / best (geomean) | × SGEMM: model's pick |",
             "|---|---|---:|---:|---:|"]
    for name, coefs in ways.items():
        usable = [p for p in scored if p["row"] in coefs]
        choices = choose(usable, coefs)
        for mode in sorted({c["mode"] for c in choices}):
            cs = [c for c in choices if c["mode"] == mode]
            lines.append(f"| {name} | {mode} | {sum(c['pick'] == c['best'] for c in cs) / len(cs):.0%} | "
                         f"{geomean([c['pick_us'] / c['best_us'] for c in cs]):.4f} | "
                         f"{geomean([c['cublas_us'] / c['pick_us'] for c in cs]):.3f} |")
    return lines


def planner_picks(results, planner, points):
    """What this build's planner (the coefficients it was built with) picks for every (case, mode), and the
    time measured for that family pinned: {(id, mode): (plan text, us or None where that plan was not timed)}."""
    timed = {(p["id"], p["mode"], p["plan"]): p["us"] for p in points}
    picks = {}
    for section in ("gemm", "batched"):
        for row in results[section]:
            if "error" in row:
                continue
            gemm, batch = abi_call(row)
            for mode in results["modes"]:
                text, _ = planner.plan(mode, None, gemm, batch)
                fields = dict(t.split("=", 1) for t in text.split() if "=" in t)
                # AUTO's planes without its scaling are tf32tf32's planes (timed in that mode).
                source = "tf32tf32" if mode == "auto" and fields["family"] == "planes" and \
                    fields["method"] == "tf32tf32" else mode
                # The pinned measurement of the same plan (a family, its tile, its form).
                picks[(row["id"], mode)] = (text, timed.get((row["id"], source, text.split(" est=")[0])))
    return picks


def choose(points, coefs):
    """For every (case, mode): the family the model picks (AUTO also gets tf32tf32's planes, as the planner
    offers them) against the best measured, and against the route the run's build took."""
    by_case = defaultdict(list)
    for p in points:
        # A row with too few points to fit is left out of the choice, as is a row of zeros (the planner
        # offers an uncalibrated row to its pin only: cost_model.cpp, calibrated).
        if any(coefs.get(p["row"], ())):
            by_case[(p["id"], p["mode"])].append(p)
    for (cid, mode), ps in list(by_case.items()):
        if mode == "auto":
            ps += [dict(p, mode="auto") for p in by_case.get((cid, "tf32tf32"), []) if p["family"] == "planes"]
    rows = []
    for (cid, mode), ps in by_case.items():
        est = [p.get("factor", 1.0) * sum(c * x for c, x in zip(coefs[p["row"]], p["x"])) for p in ps]
        pick = ps[min(range(len(ps)), key=est.__getitem__)]
        best = min(ps, key=lambda p: p["us"])
        rows.append({"id": cid, "mode": mode, "pick": pick["row"], "best": best["row"], "pick_us": pick["us"],
                     "best_us": best["us"], "default_us": ps[0]["default_us"], "cublas_us": ps[0]["cublas_us"]})
    return rows


def geomean(xs):
    xs = [x for x in xs if x > 0 and math.isfinite(x)]
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else math.nan


def report(results, points, mismatched, coefs, quality, choices, picks):
    lines = [f"# Cost model fit: {len(points)} pinned measurements "
             f"({results['env'].get('gpu')}, run of {results['started_utc']})", ""]
    if mismatched:
        lines += [f"{mismatched} measurements planned differently here than in the run (another build): "
                  "those this build prices on another row are left out, the others' features follow this build.", ""]
    lines += ["| row | points | " + " | ".join(FEATURES) + " | median error | 90th pct |",
              "|---|---:|" + "---:|" * len(FEATURES) + "---:|---:|"]
    for r in ROWS:
        if r in coefs:
            n, med, p90 = quality[r][:3]
            factor = f" (× {quality[r][3]:.3f})" if len(quality[r]) > 3 else ""
            lines.append(f"| {r}{factor} | {n} | " + " | ".join(f"{c:.4g}" for c in coefs[r]) +
                         f" | {math.exp(med) - 1:.0%} | {math.exp(p90) - 1:.0%} |")
    lines += ["", "Errors are |model/measured − 1| (median, 90th percentile).", "",
              "| mode | cases | picks the best | model's pick / best (geomean, worst) | × SGEMM: model's pick | "
              "best family | the run's route |", "|---|---:|---:|---:|---:|---:|---:|"]
    for mode in sorted({c["mode"] for c in choices}):
        cs = [c for c in choices if c["mode"] == mode]
        regret = [c["pick_us"] / c["best_us"] for c in cs]
        lines.append(f"| {mode} | {len(cs)} | {sum(c['pick'] == c['best'] for c in cs) / len(cs):.0%} | "
                     f"{geomean(regret):.3f}, {max(regret):.2f} | "
                     f"{geomean([c['cublas_us'] / c['pick_us'] for c in cs]):.2f} | "
                     f"{geomean([c['cublas_us'] / c['best_us'] for c in cs]):.2f} | "
                     f"{geomean([c['cublas_us'] / c['default_us'] for c in cs]):.2f} |")
    by_case = {(c["id"], c["mode"]): c for c in choices}
    lines += ["", "This build's planner (its compiled coefficients and rules, e.g. FP32 routes at small k), scored on "
              "the same measurements:", "",
              "| mode | cases | × SGEMM | ≥ 0.95× | pick / best family (geomean) |", "|---|---:|---:|---:|---:|"]
    for mode in sorted({m for _, m in picks}):
        got = [(by_case[key], us) for key, (_, us) in picks.items() if key[1] == mode and us and key in by_case]
        x = [c["cublas_us"] / us for c, us in got]
        if not x:
            continue
        lines.append(f"| {mode} | {len(got)} | {geomean(x):.2f} | {sum(v >= 0.95 for v in x) / len(x):.0%} | "
                     f"{geomean([us / c['best_us'] for c, us in got]):.3f} |")
    return "\n".join(lines) + "\n"


def inc_lines():
    """cost_coefficients.inc's coefficient lines by row name."""
    return {line.split("//", 1)[1].split(",")[0].strip(): line
            for line in INC.read_text().splitlines() if line.startswith("{{")}


def inc_coefs():
    """The coefficients cost_coefficients.inc holds now, by row name."""
    return {r: [float(v) for v in line.split("{{", 1)[1].split("}}", 1)[0].split(",")]
            for r, line in inc_lines().items()}


def write_inc(coefs, quality, source, only=None):
    """Rewrite cost_coefficients.inc: every row from this run, or only the rows in `only`, the others kept as
    they are (each line names the run that set it; a rescaled row keeps its fit's run and adds its factor's)."""
    kept = inc_lines()
    lines = ["// Fitted by tools/fit_cost_model.py (every family pinned on bench.random's sample; the fit's report is",
             "// beside the run each line names; \"× f on N <family> points of RUN\": the family's rows since scaled by f,",
             "// --rescale).",
             "// {c0 us, us per launch after the first, us per wave, us per 2^20 serial MACs, us per MB, us per 1024 chained k,",
             "//  us per wave of clustered splits, us per 2^20 packed serial MACs}"]
    for r in ROWS:
        if only is not None and r not in only:
            if r not in kept:
                raise SystemExit(f"fit_cost_model: row {r} is neither refitted nor in {INC.name}; nothing written")
            lines.append(kept[r])
            continue
        c = coefs.get(r)
        if c is None:
            raise SystemExit(f"fit_cost_model: no measurements for row {r}; nothing written")
        if len(quality[r]) > 3:  # rescaled: the fit's own note, then the factor over the earlier one
            note = kept[r].split("//", 1)[1].split("; ×")[0].strip()
            earlier = kept[r].split("; ×", 1)[1].split()[0] if "; ×" in kept[r] else "1"
            note += f"; × {float(earlier) * quality[r][3]:.4g} on {quality[r][4]} {family_of(r)} points of {source}"
        else:
            note = f"{r}, {quality[r][0]} points, {source}"
        lines.append("{{" + ", ".join(f"{v:.6g}" for v in c) + f"}}}},  // {note}")
    INC.write_text("\n".join(lines) + "\n")


def load(path):
    opener = gzip.open if str(path).endswith(".gz") else open
    with opener(path, "rt") as f:
        return json.load(f)


def relative(path):
    try:
        return path.resolve().relative_to(ROOT)
    except ValueError:
        return path


def load_runs(paths):
    """One run, or several of one GPU as one: the first run's header, every run's cases (ids prefixed by the
    run's position after the first) and the union of their pinned families."""
    results = load(paths[0])
    for i, path in enumerate(paths[1:], 1):
        other = load(path)
        if other.get("env", {}).get("gpu") != results.get("env", {}).get("gpu"):
            raise SystemExit(f"fit_cost_model: {path} was measured on another GPU than {paths[0]}")
        for section in ("gemm", "batched"):
            results[section] = results[section] + [dict(row, id=f"{i}:{row['id']}") for row in other[section]]
        results["families"] = list(dict.fromkeys(results["families"] + other.get("families", [])))
    return results


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m tools.fit_cost_model", description=__doc__.split("\n\n")[0])
    p.add_argument("results", type=pathlib.Path, nargs="+", help="calibration runs' results.json[.gz], one GPU")
    p.add_argument("--write", action="store_true", help=f"replace {INC.relative_to(ROOT)}")
    p.add_argument("--rows", default=None, metavar="R1,R2",
                   help="with --write: replace only these rows (e.g. simt,simt/slim), keep the others")
    p.add_argument("--rescale", action="store_true",
                   help="keep each row's shape, scale each kernel family's rows by its measured over estimated time")
    p.add_argument("--holdout", type=int, default=None, metavar="SEED",
                   help="also score kept rows, a refit and a rescale fitted on half the cases on the other half")
    p.add_argument("--report", type=pathlib.Path, default=None, help="also write the report here (Markdown)")
    args = p.parse_args(argv)
    results = load_runs(args.results)
    if not results.get("families"):
        raise SystemExit("fit_cost_model: this run pinned no families (bench.random --families)")
    planner = Planner(results.get("env", {}))
    points, mismatched = samples(results, planner)
    coefs, quality = rescale(points, inc_coefs()) if args.rescale else refit(points)
    md = report(results, points, mismatched, coefs, quality, choose(points, coefs),
                planner_picks(results, planner, points))
    if args.holdout is not None:
        md += "\n" + "\n".join(holdout(points, inc_coefs(), args.holdout)) + "\n"
    print(md)
    if args.report:
        args.report.write_text(md)
    if args.write:
        source = " + ".join(str(relative(path)) for path in args.results)
        only = None if args.rows is None else set(args.rows.split(","))
        if only is not None and not only <= set(ROWS):
            raise SystemExit(f"fit_cost_model: --rows names unknown rows {sorted(only - set(ROWS))}")
        write_inc(coefs, quality, source, only)
        print(f"fit_cost_model: wrote {INC.relative_to(ROOT)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
