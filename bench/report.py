"""Verdicts, ratios and the written results: a Markdown report, JSON with every raw figure, the results folder.

Pure Python (no GPU, no torch): `python -m bench --from-json results.json` re-renders a saved run.
"""
import datetime
import gzip
import json
import math
import re
import statistics
from collections import defaultdict
from pathlib import Path

from bench import guards
from bench.inputs import EXP_TYPES
from bench.methods import BY_NAME, CATALOG, SGEMM
from bench.profiles import HEADLINE_N, shape_label

SCHEMA = "ecgemm-bench/1"
HEADLINE_METHODS = ("ecgemm_tf32tf32", "ecgemm_halfhalf")
HEADLINE_PEER = "xla_tf32x3"
MARK = {guards.OK: "", guards.FLAG: " !", guards.FAIL: " ✗", guards.ERROR: " ✗", guards.RANGE: " ~",
        guards.SKIPPED: ""}
THROUGHPUT_NOTE = ("Shapes m×k×n (A is m×k). × SGEMM = cuBLAS SGEMM time / method time on the same shape, in the "
                   "same process (in parentheses where the method missed its accuracy promise). Residual: "
                   "‖C − C_fp64‖_F / ‖C_fp64‖_F of the timed call's output, urand(−1, 1) inputs. Times are medians "
                   "of >= 10 CUDA-event samples; XLA's (JAX exposes no events) are host-clock samples around "
                   "block_until_ready, from a subprocess.")
HOST_BOUND_NOTE = ("`†` host-bound: issuing one call (Python and launch) took >= 80% of its GPU time, so called "
                   "back to back from Python it runs at the caller's pace; its samples were timed with a GPU sleep "
                   "queued first (GPU time of back-to-back calls); results.json keeps the caller's cost (host_ms_per_call).")
LEGEND = ("`!` flagged: the residual is far from the method's promise (see Flags); `✗` failed (NaN/Inf or error); "
          "`~` outside FP16's exponent range, a documented limit of FP16-operand methods.")


def new_results(profile_dict):
    return {"schema": SCHEMA, "profile": profile_dict, "started_utc": _utc_now(), "env": {}, "clock_snapshots": [],
            "methods": [], "throughput": [], "accuracy": [], "exp_types": [], "energy": [], "notes": []}


def _utc_now():
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")


# ---------------------------------------------------------------------------------------------- verdicts, ratios
def _case_key(row):
    return tuple(row["shape"]), row.get("seed"), row.get("exp_type")


def finalize(results):
    """Judge every residual against its method's promise, and compute every speed ratio to SGEMM."""
    for section in ("throughput", "accuracy", "exp_types"):
        rows = results[section]
        sgemm = {_case_key(r): r.get("residual") for r in rows if r["method"] == SGEMM and "error" not in r}
        for row in rows:
            if "error" in row:
                row["status"], row["why"] = guards.ERROR, row["error"]
                continue
            reference = sgemm.get(_case_key(row)) if row["method"] != SGEMM else None
            verdict = guards.judge(BY_NAME[row["method"]], row.get("residual"), reference, row.get("exp_type"))
            row["status"], row["why"] = verdict.status, verdict.why
    sgemm_ms = {tuple(r["shape"]): r["ms"] for r in results["throughput"] if r["method"] == SGEMM and r.get("ms")}
    for row in results["throughput"]:
        base = sgemm_ms.get(tuple(row["shape"]))
        row["speedup_vs_sgemm"] = base / row["ms"] if base and row.get("ms") else None
    sgemm_energy = {r["n"]: r.get("gflop_per_joule") for r in results["energy"] if r["method"] == SGEMM}
    for row in results["energy"]:
        base = sgemm_energy.get(row["n"])
        row["energy_vs_sgemm"] = row["gflop_per_joule"] / base if base and row.get("gflop_per_joule") else None
    results["headline"] = headline(results)
    return results


def headline(results, n=HEADLINE_N):
    """tf32tf32 and halfhalf against SGEMM and XLA TF32×3 at n×n×n: time ratios and the rows' verdicts."""
    rows = {r["method"]: r for r in results["throughput"] if r["shape"] == [n, n, n] and r.get("ms")}
    found = {"n": n}
    for name in HEADLINE_METHODS:
        row = rows.get(name)
        if row is None:
            continue
        entry = {"ms": row["ms"], "tflops": row["tflops"], "status": row.get("status"), "residual": row["residual"]}
        for peer, key in ((SGEMM, "vs_sgemm"), (HEADLINE_PEER, "vs_xla_tf32x3")):
            if peer in rows:
                entry[key] = rows[peer]["ms"] / row["ms"]
                entry[key + "_peer_status"] = rows[peer].get("status")
                entry[key + "_peer_why"] = rows[peer].get("why", "")
        found[name] = entry
    return found


# ---------------------------------------------------------------------------------------------- Markdown
def _num(x, fmt):
    return "—" if x is None or (isinstance(x, float) and math.isnan(x)) else format(x, fmt)


def _res(x):
    if x is None:
        return "—"
    return str(x) if not math.isfinite(x) else f"{x:.2e}"


def _ok_cell(row):
    status = row.get("status", guards.OK)
    if status == guards.OK:
        return "ok"
    why = row.get("why", "")
    return f"{status.upper()}: {why}" if why else status.upper()


def _ordered_methods(rows):
    present = {r["method"] for r in rows}
    return [m for m in CATALOG if m.name in present]


def _table(header, rows, align):
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(align) + "|"]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return lines


def throughput_table(results):
    out = []
    order = {m.name: i for i, m in enumerate(CATALOG)}
    shapes = []
    for r in results["throughput"]:
        if r["shape"] not in shapes:
            shapes.append(r["shape"])
    for shape in shapes:
        rows = sorted((r for r in results["throughput"] if r["shape"] == shape), key=lambda r: order[r["method"]])
        for r in rows:
            ratio = _num(r.get("speedup_vs_sgemm"), ".2f")
            if r.get("status") in (guards.FLAG, guards.FAIL) and ratio != "—":
                ratio = f"({ratio})"  # not a like-for-like comparison: the method missed its accuracy promise
            ms = _num(r.get("ms"), ".3f") + (" †" if r.get("host_bound") else "")
            out.append([BY_NAME[r["method"]].label, shape_label(shape), ms,
                        _num(r.get("tflops"), ".1f"), ratio, _res(r.get("residual")), _ok_cell(r)])
    return _table(["method", "shape m×k×n", "ms", "TFLOP/s", "× SGEMM", "residual", "ok"], out,
                  ["---", "---", "---:", "---:", "---:", "---:", "---"])


def _pivot(rows, row_key, row_label, row_keys):
    """Mean residual per (row key, method), with the worst verdict over seeds marked."""
    methods = _ordered_methods(rows)
    cells = defaultdict(list)
    for r in rows:
        cells[(row_key(r), r["method"])].append(r)
    out = []
    for key in row_keys:
        line = [row_label(key)]
        for m in methods:
            group = cells.get((key, m.name), [])
            vals = [r["residual"] for r in group if r.get("residual") is not None]
            if not group:
                line.append("")
                continue
            mean = statistics.fmean(vals) if vals else None
            line.append(_res(mean) + MARK[guards.worst(r.get("status", guards.OK) for r in group)])
        out.append(line)
    return _table([""] + [m.label for m in methods], out, ["---"] + ["---:"] * len(methods))


def accuracy_table(results):
    rows = results["accuracy"]
    ks = sorted({r["shape"][1] for r in rows})
    return _pivot(rows, lambda r: r["shape"][1], lambda k: f"k = 2^{k.bit_length() - 1}", ks)


def exp_types_table(results):
    rows = results["exp_types"]
    types = sorted({r["exp_type"] for r in rows})

    def label(t):
        (alo, ahi), (blo, bhi) = EXP_TYPES[t]
        return f"type {t}: A ({alo}, {ahi}), B ({blo}, {bhi})"
    return _pivot(rows, lambda r: r["exp_type"], label, types)


def energy_table(results):
    order = {m.name: i for i, m in enumerate(CATALOG)}
    out = []
    for r in sorted(results["energy"], key=lambda r: order[r["method"]]):
        if "error" in r:
            out.append([BY_NAME[r["method"]].label, "—", "—", "—", "—", "—", "error: " + r["error"]])
            continue
        out.append([BY_NAME[r["method"]].label, _num(r.get("gflop_per_joule"), ".1f"),
                    _num(r.get("energy_vs_sgemm"), ".2f"), _num(r.get("watts"), ".0f"), _num(r.get("tflops"), ".1f"),
                    f"{r['calls']} in {r['seconds']:.1f} s", ""])
    return _table(["method", "GFLOP/J", "× SGEMM", "avg W", "TFLOP/s", "GEMMs", "note"], out,
                  ["---", "---:", "---:", "---:", "---:", "---:", "---"])


def flags(results):
    """One line per distinct (method, section, verdict) that is not ok."""
    seen = {}
    for section in ("throughput", "accuracy", "exp_types"):
        for r in results[section]:
            if r.get("status") in (guards.FLAG, guards.FAIL, guards.ERROR):
                where = shape_label(r["shape"]) + (f" type {r['exp_type']}" if "exp_type" in r else "")
                seen.setdefault((r["method"], section, r["status"], r.get("why", "")), []).append(where)
    return [f"- {BY_NAME[m].label} [{section}] {status.upper()}: {why} — at {', '.join(sorted(set(where)))}"
            for (m, section, status, why), where in seen.items()]


def headline_lines(results):
    h = results.get("headline") or {}
    n = h.get("n", HEADLINE_N)
    lines = []
    for name in HEADLINE_METHODS:
        e = h.get(name)
        if not e:
            lines.append(f"- {BY_NAME[name].label}: not measured at n = {n}")
            continue
        parts = [f"{e['tflops']:.1f} TFLOP/s"]
        if "vs_sgemm" in e:
            parts.append(f"{e['vs_sgemm']:.2f}× cuBLAS SGEMM")
        if "vs_xla_tf32x3" in e:
            peer = e.get("vs_xla_tf32x3_peer_status")
            flagged = f" (XLA row {peer}: {e.get('vs_xla_tf32x3_peer_why', '')})" if peer != guards.OK else ""
            parts.append(f"{e['vs_xla_tf32x3']:.2f}× XLA TF32×3{flagged}")
        parts.append(f"residual {_res(e['residual'])} ({e['status']})")
        lines.append(f"- {BY_NAME[name].label} at n = {n}: " + ", ".join(parts))
    return lines


def environment_lines(results):
    env = results.get("env", {})
    pk = env.get("packages") if isinstance(env.get("packages"), dict) else {}
    loaded = env.get("cublas_loaded_by_torch")
    cublas = (", ".join(str(c.get("version")) for c in loaded) if isinstance(loaded, list) else str(loaded)) or "?"
    snap = (results.get("clock_snapshots") or [{}])[0]
    gpu = (f"- GPU: {env.get('gpu', '?')} (cc {env.get('compute_capability', '?')}, {env.get('sms', '?')} SMs), "
           f"driver {env.get('driver', '?')}, CUDA (torch) {env.get('torch_cuda', '?')}, cuBLAS {cublas}")
    clocks = (f"- clocks at start: SM {snap.get('sm_clock_mhz', '?')} / max {snap.get('sm_clock_max_mhz', '?')} MHz, "
              f"memory {snap.get('mem_clock_mhz', '?')} MHz, power limit {snap.get('power_limit_w', '?')} W, "
              f"{snap.get('temperature_c', '?')} °C")
    return [gpu, "- " + ", ".join(f"{k} {v}" for k, v in pk.items()), clocks]


def markdown(results):
    p = results.get("profile", {})
    title = (f"# ecgemm bench — {results.get('env', {}).get('gpu', '?')}, profile {p.get('name', '?')}, "
             f"{results.get('started_utc', '')}")
    lines = [title, ""]
    lines += environment_lines(results)
    lines += [f"- {m['label']}: {m['variant']}" for m in results.get("methods", []) if m.get("variant")] + [""]
    lines += ["## Headline", ""] + headline_lines(results) + [""]
    lines += ["## Throughput", "", THROUGHPUT_NOTE, ""]
    lines += throughput_table(results) + [""]
    if any(r.get("host_bound") for r in results["throughput"]):
        lines += [HOST_BOUND_NOTE, ""]
    if results["accuracy"]:
        lines += ["## Accuracy vs k (the paper's Figure 1): 64×k×64, urand(−1, 1), mean residual over seeds", ""]
        lines += accuracy_table(results) + ["", LEGEND, ""]
    if results["exp_types"]:
        lines += ["## Exponent ranges (the paper's exp_rand types)", ""] + exp_types_table(results) + ["", LEGEND, ""]
    if results["energy"]:
        n = results["energy"][0]["n"]
        lines += [f"## Energy (NVML total-energy counter, back-to-back GEMMs, n = {n})", ""]
        lines += energy_table(results) + [""]
    flagged = flags(results)
    lines += ["## Flags", ""] + (flagged or ["- none"]) + [""]
    if results.get("notes"):
        lines += ["## Notes", ""] + [f"- {n}" for n in results["notes"]] + [""]
    unavailable = [m for m in results.get("methods", []) if not m.get("available")]
    if unavailable:
        lines += ["## Not measured", ""] + [f"- {m['label']}: {m.get('reason', '')}" for m in unavailable] + [""]
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------------- files
def _json_safe(x):
    """Strict JSON: non-finite floats become the strings 'NaN', 'Infinity', '-Infinity'."""
    if isinstance(x, float) and not math.isfinite(x):
        return "NaN" if math.isnan(x) else ("Infinity" if x > 0 else "-Infinity")
    if isinstance(x, dict):
        return {k: _json_safe(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_json_safe(v) for v in x]
    return x


_NON_FINITE = {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}


def _from_json(x):
    if isinstance(x, str) and x in _NON_FINITE:
        return _NON_FINITE[x]
    if isinstance(x, dict):
        return {k: _from_json(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_from_json(v) for v in x]
    return x


def write_json(results, path):
    Path(path).write_text(json.dumps(_json_safe(results), indent=1, allow_nan=False) + "\n")


def read_json(path):
    """A results.json, or results.json.gz (large runs are committed compressed)."""
    path = Path(path)
    raw = gzip.decompress(path.read_bytes()) if path.suffix == ".gz" else path.read_bytes()
    return _from_json(json.loads(raw))


def slug(text):
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "gpu"


def results_dir(root, gpu, date, profile):
    """bench/results/<gpu>-<date>/ (a quick run gets a -quick suffix, so it never overwrites a full run)."""
    name = f"{slug(gpu)}-{date}" + ("" if profile == "default" else f"-{profile}")
    return Path(root) / name


def write_section(out, results, text):
    """A section's outputs in `out` (a Path, or None for stdout only): results.json and
    table.md, as bench.auto, bench.batched and bench.overhead write them."""
    print(text)
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        (out / "results.json").write_text(json.dumps(results, indent=1) + "\n")
        (out / "table.md").write_text(text + "\n")
