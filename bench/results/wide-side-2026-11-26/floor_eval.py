"""Offline (no GPU): the planner's cost model with a DRAM floor, t = max(linear, megabytes * c), on a calibration
run with every family pinned: how the model's picks compare with the best pinned family for several c, and which
families the misses (< 0.95x cuBLAS in the best family) fall in. Needs libecgemm (ECGEMM_LIBRARY) and SciPy.

    python floor_eval.py CALIBRATION.json.gz
"""
import collections
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[3]
sys.path[:0] = [str(ROOT / "tests"), str(ROOT)]
from tools import fit_cost_model as f  # noqa: E402

res = f.load(sys.argv[1])
planner = f.Planner(res["env"])
pts, mism = f.samples(res, planner)
coefs = f.inc_coefs()
print("points", len(pts), "mismatched", mism, file=sys.stderr)
def choose(points, floor):
    from collections import defaultdict
    by = defaultdict(list)
    for p in points: by[(p["id"], p["mode"], p["section"])].append(p)
    for (cid, mode, s), ps in list(by.items()):
        if mode == "auto":
            ps += [dict(p, mode="auto") for p in by.get((cid, "tf32tf32", s), []) if p["family"] == "planes"]
    out = []
    for key, ps in by.items():
        ps = [p for p in ps if p["row"] in coefs]
        if not ps: continue
        est = [max(sum(c*x for c, x in zip(coefs[p["row"]], p["x"])), floor * p["x"][4]) for p in ps]
        pick = ps[min(range(len(ps)), key=est.__getitem__)]
        best = min(ps, key=lambda p: p["us"])
        out.append((key, pick, best))
    return out
base = {k: p for k, p, b in choose(pts, 0.0)}
for floor in (0.0, 0.25, 0.28, 0.30, 0.32, 0.34, 0.36, 0.40):
    ch = choose(pts, floor)
    for sec in ("gemm", "batched"):
        c = [x for x in ch if x[0][2] == sec]
        g = f.geomean([p["us"] / b["us"] for _, p, b in c])
        bad = sum(p["us"] > 1.05 * b["us"] for _, p, b in c)
        miss = sum(p["cublas_us"] / p["us"] < 0.95 for _, p, b in c)
        moved = [(k, base[k], p) for k, p, b in c if p["plan"] != base[k]["plan"]]
        gain = f.geomean([base[k]["us"] / p["us"] for k, q, p in moved]) if moved else float('nan')
        print(f"floor {floor:.2f} {sec:8s} pick/best {g:.4f}  >5% off best {bad:4d}  <0.95 SGEMM {miss:4d}  moved {len(moved):3d} gain {gain:.3f}")
ch = choose(pts, 0.0)
cnt = collections.Counter(); tot = collections.Counter()
ex = collections.defaultdict(list)
for (cid, mode, sec), p, b in ch:
    if sec != "gemm" or mode != "tf32tf32": continue
    x = b["cublas_us"] / b["us"]
    cls = b["plan"].split()[0] + " " + " ".join(t for t in b["plan"].split() if t.startswith("tile="))
    tot[cls] += 1
    if x < 0.95:
        cnt[cls] += 1; ex[cls].append((round(x, 2), round(b["cublas_us"], 1), cid))
for c, n in cnt.most_common(): print(f"{c:40s} misses {n:3d} of {tot[c]:4d}", sorted(ex[c])[:6])
