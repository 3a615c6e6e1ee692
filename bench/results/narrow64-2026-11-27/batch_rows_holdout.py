"""Offline (no GPU): fused_mma's 32-wide tf32tf32 row refitted on call 1's points, scored on cases it was not fitted to
(10 half/half splits), against the rows as committed, by section: (b) one row for 2-D products and batches, as call 3
measured; then the 2-D fit with batches left on the kept row (a row of their own). Run from the repository root with
ECGEMM_LIBRARY set and PYTHONPATH=.:tests:python:

    python bench/results/narrow64-2026-11-27/batch_rows_holdout.py
"""
import math
import pathlib
import random

from tools import fit_cost_model as F

D = str(pathlib.Path(__file__).resolve().parent / "call1") + "/"
res = F.load_runs([pathlib.Path(D + r + "/results.json.gz") for r in ("all", "narrow30", "narrow31")])
pl = F.Planner(res.get("env", {}))
pts, _ = F.samples(res, pl)
kept = F.inc_coefs()
R32 = "fused_mma32/tf32tf32"
for p in pts:
    if p["row"] == R32 and p["section"] == "batched":
        p["row"] = R32 + "#b"  # batches priced apart
kept[R32 + "#b"] = kept[R32]
ids = sorted({p["id"] for p in pts})
acc = {}
for seed in range(21, 31):
    train = set(random.Random(seed).sample(ids, len(ids)//2))
    scored = [p for p in pts if p["id"] not in train]

    def sc(coefs, mode, sec):
        c = [x for x in F.choose([p for p in scored if p["section"] == sec], coefs) if x["mode"] == mode]
        return math.log(F.geomean([x['pick_us']/x['best_us'] for x in c])), sum(x['cublas_us']/x['pick_us'] >= 0.95 for x in c)/len(c)
    ways = {}
    b = dict(kept); b[R32] = list(F.fit([p for p in pts if p["row"] == R32 and p["id"] in train])[0]); b[R32 + "#b"] = b[R32]; ways["b"] = b
    b2 = dict(b); b2[R32 + "#b"] = kept[R32]; ways["b, batches on the kept row"] = b2
    for name, coefs in ways.items():
        for mode in ("tf32tf32", "auto"):
            for sec in ("gemm", "batched"):
                r0, n0 = sc(kept, mode, sec); r1, n1 = sc(coefs, mode, sec)
                acc.setdefault((name, mode, sec), []).append((r1 - r0, n1 - n0))
for k, v in sorted(acc.items()):
    print(k, "regret %+.3f%%" % (100*sum(a for a,_ in v)/len(v)), "near %+.4f" % (sum(b for _,b in v)/len(v)), "worse", sum(a > 1e-9 for a,_ in v))
