"""The piped rows (README.md, calls B and S): how the fitted rows price call B's pinned piped times, by section and
k (estimate / measured: single products priced low on small grids), and seed 26's batches in call S against call V
(our own time where a batch moved to a piped tile, and on the routes that did not move; cuBLAS's time on those);
call R (the refitted batch rows) against call S: every batch whose route changed, in our own time over the unmoved
routes' (call R ran on another machine).

    python bench/results/piped-2026-12-07/rows.py   (after building the library with the committed rows)
"""
import gzip
import json
import math
import pathlib
import sys
from collections import defaultdict

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2]))
from tools import fit_cost_model as fc  # noqa: E402


def load(path):
    return json.load(gzip.open(path))


def geomean(xs):
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else math.nan


def fit_by_k(path):
    """est / measured of every pinned piped time, each row fitted on call B (the single products' rows too,
    which the tree leaves uncalibrated)."""
    results = fc.load_runs([path])
    points, _ = fc.samples(results, fc.Planner(results.get("env", {})))
    # Only the plans timed: under this build a plain "simt" pin may plan a piped tile where call B timed another.
    points = [p for p in points if p["same_plan"]]
    coefs = fc.refit(points)[0]
    k_of = {r["id"]: r["k"] for s in ("gemm", "batched") for r in results[s]}
    bins = defaultdict(list)
    for p in points:
        if p["row"].startswith("simt/piped"):
            est = sum(a * b for a, b in zip(coefs[p["row"]], p["x"]))
            k = next(b for b in (64, 256, 4096, math.inf) if k_of[p["id"]] <= b)
            bins[(p["section"], k)].append(est / p["us"])
    print("| section | k up to | points | est / measured: 10th pct | median | 90th pct |\n|---|---:|---:|---:|---:|---:|")
    for (section, k), v in sorted(bins.items()):
        v.sort()
        print(f"| {section} | {k} | {len(v)} | {v[len(v) // 10]:.2f} | {v[len(v) // 2]:.2f} | {v[int(0.9 * len(v))]:.2f} |")


def moved(before, after):
    a, b = load(before), load(after)
    print("\n| mode | batches | moved to a piped tile | our time, before / after (geomean, min, max) | below 0.95× after |"
          " all batches | unmoved: ours / cuBLAS after over before |\n|---|---:|---:|---:|---:|---:|---:|")
    ra = {r["id"]: r for r in a["batched"] if "error" not in r}
    rb = {r["id"]: r for r in b["batched"] if "error" not in r}
    for mode in ("tf32tf32", "halfhalf", "auto"):
        gain, every, ours, cublas, rows = [], [], [], [], []
        for i in sorted(set(ra) & set(rb)):
            ma, mb = ra[i]["methods"], rb[i]["methods"]
            if "gpu_ms" not in ma.get(mode, {}) or "gpu_ms" not in mb.get(mode, {}):
                continue
            r = ma[mode]["gpu_ms"] / mb[mode]["gpu_ms"]
            every.append(r)
            if "piped" in mb[mode]["route"] and "piped" not in ma[mode]["route"]:
                gain.append(r)
                rows.append((i, rb[i], r, ma[mode]["route"].split(" splits")[0], mb[mode]["route"].split(" splits")[0]))
            elif ma[mode]["route"].split(" est=")[0] == mb[mode]["route"].split(" est=")[0]:
                ours.append(1 / r)
                cublas.append(mb["cublas"]["gpu_ms"] / ma["cublas"]["gpu_ms"])
        print(f"| {mode} | {len(every)} | {len(gain)} | {geomean(gain):.3f}, {min(gain):.2f}, {max(gain):.2f} | "
              f"{sum(g < 0.95 for g in gain)} | {geomean(every):.4f} | {geomean(ours):.3f} / {geomean(cublas):.3f} |")
        for i, row, r, old, new in rows if mode == "tf32tf32" else ():
            print(f"|   | {i}: {row['batch']} × {row['m']}×{row['k']}×{row['n']} | {r:.2f} | {old} → {new} | | | |")


def rerouted(before, after):
    a, b = load(before), load(after)
    ra = {r["id"]: r for r in a["batched"] if "error" not in r}
    rb = {r["id"]: r for r in b["batched"] if "error" not in r}
    print("\n| mode | unmoved: our / cuBLAS time, after over before | moved | moved, our time over the unmoved's (geomean) |"
          " all batches, likewise |\n|---|---:|---:|---:|---:|")
    lines = []
    for mode in ("tf32tf32", "halfhalf", "auto"):
        same, cublas, moved, every = [], [], [], []
        for i in sorted(set(ra) & set(rb)):
            ma, mb = ra[i]["methods"].get(mode, {}), rb[i]["methods"].get(mode, {})
            if "gpu_ms" not in ma or "gpu_ms" not in mb:
                continue
            r = ma["gpu_ms"] / mb["gpu_ms"]
            every.append(r)
            old, new = (m["route"].split(" est=")[0] for m in (ma, mb))
            if old == new:
                same.append(r)
                cublas.append(ra[i]["methods"]["cublas"]["gpu_ms"] / rb[i]["methods"]["cublas"]["gpu_ms"])
            else:
                moved.append(r)
                row = rb[i]
                lines.append(f"| {mode} | {i}: {row['batch']} × {row['m']}×{row['k']}×{row['n']} | "
                             f"{old.split(' splits')[0]} → {new.split(' splits')[0]} | {r / geomean(same or [1]):.2f} |")
        base = geomean(same)
        print(f"| {mode} | {1 / base:.3f} / {1 / geomean(cublas):.3f} | {len(moved)} | {geomean(moved) / base:.3f} | "
              f"{geomean(every) / base:.4f} |")
    print("\n| mode | batch | route before → after | speed-up over the unmoved's |\n|---|---|---|---:|")
    print("\n".join(lines))


if __name__ == "__main__":
    fit_by_k(HERE / "callB/cal41/results.json.gz")
    moved(HERE / "callV/random-26/results.json.gz", HERE / "callS/random-26/results.json.gz")
    rerouted(HERE / "callS/random-26/results.json.gz", HERE / "callR/random-26/results.json.gz")
