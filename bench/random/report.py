"""The random sample's report: ratios to cuBLAS, verdicts, the summary per mode and route, the worst shapes, the
Markdown; and the merge of shard results. Pure Python (no GPU, no torch): `--from-json` re-renders a saved run.

× cuBLAS is cuBLAS's time over ecgemm's on the same case (above 1: ecgemm is faster). Geometric means summarise
ratios (a 2× win and a 2× loss average to 1×).
"""
import math
import statistics
from collections import defaultdict

from bench import guards
from bench.methods import BY_NAME
from bench.random.measure import CUBLAS

SECTIONS = ("gemm", "batched")
NEAR = 0.95                       # "at least 0.95× cuBLAS": the fraction the issue tracks
WORST = {"gemm": 15, "batched": 10}
MERGE_KEYS = ("schema", "modes", "inputs")
SAMPLE_KEYS = ("seed", "count", "batched_count", "budget_s", "modes")


def route_family(route):
    """The kernel family of an `ecgemm.explain` string ("family=fused_mma method=… tile=…"), else "unknown"."""
    for token in (route or "").split():
        if token.startswith("family="):
            return token[len("family="):] or "unknown"
    return "unknown"


def mode_rows(results, section, mode):
    """(row, the mode's entry) for every case of a section where both cuBLAS and the mode were timed."""
    return [(r, r["methods"][mode]) for r in results[section]
            if r["methods"].get(mode, {}).get("x_cublas") is not None]


# ---------------------------------------------------------------------------------------------- ratios, verdicts
def finalize(results):
    """Ratios to cuBLAS, residual ratios and verdicts on every entry, then the summary."""
    for section in SECTIONS:
        for row in results[section]:
            ref = row["methods"].get(CUBLAS, {})
            for name, e in row["methods"].items():
                if name == CUBLAS:
                    continue
                e["family"] = route_family(e.get("route"))
                e["x_cublas"] = _ratio(ref.get("gpu_ms"), e.get("gpu_ms"))
                e["x_cublas_e2e"] = _ratio(ref.get("e2e_ms"), e.get("e2e_ms"))
                e["residual_ratio"] = _ratio(e.get("residual"), ref.get("residual"))
                info = BY_NAME.get(f"ecgemm_{name}")
                if "error" in e:
                    e["status"], e["why"] = guards.ERROR, e["error"]
                elif info is not None:
                    verdict = guards.judge(info, e.get("residual"), ref.get("residual"))
                    e["status"], e["why"] = verdict.status, verdict.why
    results["summary"] = {s: {m: summarize(results, s, m) for m in results["modes"]} for s in SECTIONS}
    return results


def _ratio(num, den):
    if num is None or den is None or not (math.isfinite(num) and math.isfinite(den)) or den <= 0:
        return None
    return num / den


def geomean(xs):
    xs = [x for x in xs if x is not None and x > 0]
    return math.exp(statistics.fmean(math.log(x) for x in xs)) if xs else None


def _stats(pairs):
    ratios = [e["x_cublas"] for _, e in pairs]
    if not ratios:
        return {"cases": 0}
    worst_row, worst = min(pairs, key=lambda p: p[1]["x_cublas"])
    return {"cases": len(ratios), "geomean": geomean(ratios), "near": sum(x >= NEAR for x in ratios) / len(ratios),
            "min": worst["x_cublas"], "min_id": worst_row["id"]}


def summarize(results, section, mode):
    """A mode's figures over a section: time ratios (GPU and end to end), residual ratios, verdicts, routes."""
    pairs = mode_rows(results, section, mode)
    out = _stats(pairs)
    e2e = [e["x_cublas_e2e"] for _, e in pairs if e.get("x_cublas_e2e") is not None]
    out["geomean_e2e"] = geomean(e2e)
    out["near_e2e"] = sum(x >= NEAR for x in e2e) / len(e2e) if e2e else None
    rr = [(e["residual_ratio"], r["id"]) for r, e in pairs if e.get("residual_ratio") is not None]
    out["residual_ratio_max"], out["residual_ratio_max_id"] = max(rr) if rr else (None, None)
    out["residual_ratio_median"] = statistics.median(x for x, _ in rr) if rr else None
    entries = [r["methods"].get(mode, {}) for r in results[section]]
    out["not_ok"] = sum(e.get("status") in (guards.FLAG, guards.FAIL) for e in entries)
    out["errors"] = sum("error" in e or "error" in r or "error" in r["methods"].get(CUBLAS, {})
                        for r, e in zip(results[section], entries))
    out["host_paced"] = sum(bool(e.get("host_paced_rounds")) for _, e in pairs)
    by_family = defaultdict(list)
    for r, e in pairs:
        by_family[e["family"]].append((r, e))
    out["families"] = {f: _stats(p) for f, p in sorted(by_family.items())}
    return out


# AUTO becomes the default once it is at least tf32tf32's speed on every shape (issue 26's gate): its time
# against tf32tf32's on the same case, as × cuBLAS is against cuBLAS's.
GATE = ("auto", "tf32tf32")


def against(results, section, mode, base):
    """`mode` against `base` on the cases where both were timed: base's time over mode's (above 1: mode is
    faster), the geometric mean, the shares at >= 1.0 and >= NEAR, and the slowest case."""
    ratios = [(_ratio(r["methods"][base].get("gpu_ms"), r["methods"][mode].get("gpu_ms")), r["id"])
              for r in results[section] if mode in r["methods"] and base in r["methods"]]
    ratios = [(x, i) for x, i in ratios if x is not None]
    if not ratios:
        return {"cases": 0}
    xs = [x for x, _ in ratios]
    low, low_id = min(ratios)
    return {"cases": len(xs), "geomean": geomean(xs), "at_least_1": sum(x >= 1.0 for x in xs) / len(xs),
            "near": sum(x >= NEAR for x in xs) / len(xs), "min": low, "min_id": low_id}


def gate_table(results, section):
    mode, base = GATE
    g = against(results, section, mode, base)
    if not g["cases"]:
        return []
    return _table(["mode", "against", "cases", "geomean ×", "≥ 1.0×", f"≥ {NEAR}×", "min ×"],
                  [[mode, base, str(g["cases"]), _num(g["geomean"], ".3f"), _pct(g["at_least_1"]), _pct(g["near"]),
                    f"{g['min']:.2f} ({g['min_id']})"]], ["---", "---", "---:", "---:", "---:", "---:", "---:"])


def worst(results, section, mode, count=None):
    """The `count` cases where the mode is slowest against cuBLAS, slowest first."""
    count = WORST[section] if count is None else count
    return sorted(mode_rows(results, section, mode), key=lambda p: p[1]["x_cublas"])[:count]


# ---------------------------------------------------------------------------------------------- merging shards
def merge(parts):
    """One results dict from the results of several shards (or one run): same sample, disjoint cases."""
    if not parts:
        raise ValueError("nothing to merge")
    first = parts[0]
    for p in parts[1:]:
        for key in MERGE_KEYS:
            if p.get(key) != first.get(key):
                raise ValueError(f"results differ in {key!r}: {first.get(key)!r} vs {p.get(key)!r}")
        for key in SAMPLE_KEYS:
            if p["sample"].get(key) != first["sample"].get(key):
                raise ValueError(f"results come from different samples ({key}: {first['sample'].get(key)!r} vs "
                                 f"{p['sample'].get(key)!r})")
        if p.get("env", {}).get("gpu") != first.get("env", {}).get("gpu"):
            raise ValueError(f"results come from different GPUs: {first['env'].get('gpu')!r} vs "
                             f"{p['env'].get('gpu')!r}")
    if len(parts) == 1:
        return first
    merged = {k: v for k, v in first.items() if k not in SECTIONS + ("summary",)}
    merged["shard"] = [p.get("shard") for p in parts]
    for section in SECTIONS:
        seen = {}
        for p in parts:
            for row in p[section]:
                if row["id"] in seen:
                    raise ValueError(f"case {row['id']} is in more than one of the merged results")
                seen[row["id"]] = row
        merged[section] = list(seen.values())
    merged["notes"] = [n for p in parts for n in p.get("notes", [])]
    merged["clocks"] = [c for p in parts for c in p.get("clocks", [])]
    for key in ("elapsed_s", "estimated_s"):
        merged[key] = sum(p.get(key) or 0 for p in parts)
    merged["started_utc"] = min(p["started_utc"] for p in parts)
    return merged


# ---------------------------------------------------------------------------------------------- Markdown
def _num(x, fmt):
    return "—" if x is None or (isinstance(x, float) and math.isnan(x)) else format(x, fmt)


def _pct(x):
    return "—" if x is None else f"{100 * x:.0f}%"


def _us(ms):
    if ms is None:
        return "—"
    us = ms * 1e3
    return f"{us:.1f}" if us < 1000 else f"{us:.0f}"


def _res(x):
    if x is None:
        return "—"
    return str(x) if not math.isfinite(x) else f"{x:.2e}"


def _table(header, rows, align):
    return (["| " + " | ".join(header) + " |", "|" + "|".join(align) + "|"]
            + ["| " + " | ".join(r) + " |" for r in rows])


def _label(row):
    if "batch" in row:
        return f"{row['batch']}×({row['m']}×{row['k']}×{row['n']})"
    return f"{row['m']}×{row['k']}×{row['n']}"


def summary_table(results, section):
    lines = []
    for mode in results["modes"]:
        s = results["summary"][section][mode]
        if not s["cases"]:
            lines.append([mode, "0"] + ["—"] * 8)
            continue
        rr = _num(s["residual_ratio_max"], ".2f") + (f" ({s['residual_ratio_max_id']})"
                                                     if s["residual_ratio_max_id"] else "")
        lines.append([mode, str(s["cases"]), _num(s["geomean"], ".2f"), _pct(s["near"]),
                      f"{s['min']:.2f} ({s['min_id']})", _num(s["geomean_e2e"], ".2f"), _pct(s["near_e2e"]),
                      rr, _num(s["residual_ratio_median"], ".2f"), f"{s['not_ok']} / {s['errors']}"])
    return _table(["mode", "cases", "geomean ×", f"≥ {NEAR}×", "min ×", "geomean × e2e", f"≥ {NEAR}× e2e",
                   "residual ratio max", "median", "not ok / errors"], lines,
                  ["---", "---:", "---:", "---:", "---:", "---:", "---:", "---:", "---:", "---:"])


def family_table(results, section):
    lines = []
    for mode in results["modes"]:
        for family, s in results["summary"][section][mode]["families"].items():
            lines.append([mode, family, str(s["cases"]), _num(s["geomean"], ".2f"), _pct(s["near"]),
                          f"{s['min']:.2f} ({s['min_id']})"])
    return _table(["mode", "route family", "cases", "geomean ×", f"≥ {NEAR}×", "min ×"], lines,
                  ["---", "---", "---:", "---:", "---:", "---:"])


def worst_table(results, section, mode):
    lines = []
    for row, e in worst(results, section, mode):
        ref = row["methods"][CUBLAS]
        layout = ([row["kind"], row["op"], f"{row['lda']}, {row['ldb']}"] if section == "gemm" else [])
        lines.append([row["id"], _label(row)] + layout + [
            _us(ref.get("gpu_ms")), _us(e.get("gpu_ms")), f"{e['x_cublas']:.2f}", _num(e.get("x_cublas_e2e"), ".2f"),
            f"`{e.get('route', 'unknown')}`", _res(e.get("residual")), _num(e.get("residual_ratio"), ".2f")])
    header = ["case", "shape m×k×n" if section == "gemm" else "batch×(m×k×n)"]
    header += ["kind", "op", "lda, ldb"] if section == "gemm" else []
    header += ["cuBLAS µs", "ecgemm µs", "×", "× e2e", "route", "residual", "res. ratio"]
    return _table(header, lines, ["---"] * (len(header) - 7) + ["---:"] * 4 + ["---"] + ["---:"] * 2)


def flag_lines(results):
    out = []
    for section in SECTIONS:
        for row in results[section]:
            if "error" in row:
                out.append(f"- {section} {row['id']} {_label(row)}: ERROR {row['error']}")
            for name, e in row["methods"].items():
                if "error" in e:
                    out.append(f"- {section} {row['id']} {_label(row)} {name}: ERROR {e['error']}")
                elif e.get("status") not in (None, guards.OK):
                    out.append(f"- {section} {row['id']} {_label(row)} {name}: {e['status'].upper()} "
                               f"{e.get('why', '')} (residual {_res(e.get('residual'))})")
    return out


def sample_lines(results):
    d = results["sample"]
    measured = {s: len(results[s]) for s in SECTIONS}
    lines = [f"- sample: seed {d['seed']}, {d['count']} random shapes + structured "
             f"({', '.join(f'{k} {v}' for k, v in d['structured'].items())}), {d['batched_count']} batches; "
             f"inputs {results['inputs']}; modes {', '.join(results['modes'])}",
             f"- budget {d['budget_s']:.0f} s: per-case cap {_num(d['gemm']['cap_s'], '.3g')} s (2-D), "
             f"{_num(d['batched']['cap_s'], '.3g')} s (batches); draws rejected by the cap: "
             + ", ".join(f"{k} {v}" for part in SECTIONS for k, v in d[part]["rejected_draws"].items()),
             f"- measured {measured['gemm']} of {d['gemm']['cases']} shapes and {measured['batched']} of "
             f"{d['batched']['cases']} batches" + (f" (shards {results['shard']})" if results.get("shard") else "")
             + f"; estimated {_num(results.get('estimated_s'), '.0f')} s, "
             f"took {_num(results.get('elapsed_s'), '.0f')} s",
             f"- rule: {d['rule']}"]
    return lines


def environment_lines(results):
    env = results.get("env", {})
    pk = env.get("packages") if isinstance(env.get("packages"), dict) else {}
    snap = (results.get("clocks") or [{}])[0]
    return [f"- GPU: {env.get('gpu', '?')} (cc {env.get('compute_capability', '?')}, "
            f"{env.get('sms', '?')} SMs), CUDA (torch) {env.get('torch_cuda', '?')}; "
            + ", ".join(f"{k} {v}" for k, v in pk.items()),
            f"- clocks at start: SM {snap.get('sm_clock_mhz', '?')} / max {snap.get('sm_clock_max_mhz', '?')} MHz, "
            f"power limit {snap.get('power_limit_w', '?')} W"]


NOTE = ("× = cuBLAS time / ecgemm time on the same operands in the same process (GPU time of back-to-back calls, "
        "the queue filled first; median of rounds). e2e: one call issued from Python and synchronised, from an idle "
        "GPU. Residual ratio: ecgemm's ‖C − C_fp64‖_F / ‖C_fp64‖_F over cuBLAS's. not ok: the residual missed the "
        "FP32 promise (bench/guards.py). Route: `ecgemm.explain`.")


def markdown(results):
    ref = results["reference"]
    lines = [f"# Random shapes — ecgemm against cuBLAS, {results.get('env', {}).get('gpu', '?')}, "
             f"{results.get('started_utc', '')}", ""]
    lines += environment_lines(results) + sample_lines(results) + ["", NOTE, ""]
    for section, title in (("gemm", f"2-D products against {ref['gemm']}"),
                           ("batched", f"Batches against {ref['batched']}")):
        if not results[section]:
            continue
        lines += [f"## {title}", ""] + summary_table(results, section) + [""]
        lines += ["By route:", ""] + family_table(results, section) + [""]
        gate = gate_table(results, section)
        if gate:
            lines += [f"{GATE[0]} against {GATE[1]} (time over time, same cases; AUTO's gate to be the default):",
                      ""] + gate + [""]
        for mode in results["modes"]:
            lines += [f"### {section}: the {WORST[section]} slowest against cuBLAS, {mode}", ""]
            lines += worst_table(results, section, mode) + [""]
    paced = sum(results["summary"][s][m]["host_paced"] for s in SECTIONS for m in results["modes"])
    if paced:
        lines += [f"{paced} timings had a round not issued within its GPU sleep (host_paced_rounds in the JSON): such "
                  "rounds are timed again and left out of the median, unless no round was clean.", ""]
    lines += ["## Flags", ""] + (flag_lines(results) or ["- none"]) + [""]
    if results.get("notes"):
        lines += ["## Notes", ""] + [f"- {n}" for n in results["notes"]] + [""]
    return "\n".join(lines)
