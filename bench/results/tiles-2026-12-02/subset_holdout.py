"""Which rows to refit on call 3's calibration (cal41): the kept rows against refits of a subset, each fitted on a
random half of the cases and scored on the other half (tools/fit_cost_model's choose), over ten splits.

    PYTHONPATH=. python bench/results/tiles-2026-12-02/subset_holdout.py bench/results/tiles-2026-12-02/call3/cal41/results.json.gz
"""
import random
import sys

from tools import fit_cost_model as f

SUBSETS = {
    "fused_mma32 rows": {"fused_mma32/tf32tf32", "fused_mma32/halfhalf", "fused_mma32_batched/tf32tf32",
                         "fused_mma32_batched/halfhalf"},
    "fused_mma rows": {"fused_mma32/tf32tf32", "fused_mma32/halfhalf", "fused_mma32_batched/tf32tf32",
                       "fused_mma32_batched/halfhalf", "fused_mma/tf32tf32", "fused_mma/halfhalf",
                       "fused_mma_batched/halfhalf"},
    "every row": None,
}


def main():
    results = f.load_runs([sys.argv[1]])
    points, _ = f.samples(results, f.Planner(results.get("env", {})))
    kept = f.inc_coefs()
    ids = sorted({p["id"] for p in points})
    table = {}
    for seed in range(10):
        train = set(random.Random(seed).sample(ids, len(ids) // 2))
        fitted = [p for p in points if p["id"] in train]
        scored = [p for p in points if p["id"] not in train]
        refit = f.refit(fitted)[0]
        ways = {"kept rows": kept}
        for name, rows in SUBSETS.items():
            ways[name] = {r: (refit[r] if (rows is None or r in rows) and r in refit else c) for r, c in kept.items()}
        for name, coefs in ways.items():
            choices = f.choose([p for p in scored if p["row"] in coefs], coefs)
            for mode in ("tf32tf32", "halfhalf"):
                cs = [c for c in choices if c["mode"] == mode]
                table.setdefault((name, mode), []).append(
                    (f.geomean([c["pick_us"] / c["best_us"] for c in cs]),
                     f.geomean([c["cublas_us"] / c["pick_us"] for c in cs]),
                     sum(c["cublas_us"] / c["pick_us"] >= 0.95 for c in cs) / len(cs)))
    print("| way | mode | pick / best (mean of 10 splits) | x SGEMM | >= 0.95x | splits better than kept (pick / best) |")
    print("|---|---|---:|---:|---:|---:|")
    for (name, mode), vals in table.items():
        base = table[("kept rows", mode)]
        better = sum(v[0] < b[0] for v, b in zip(vals, base))
        print(f"| {name} | {mode} | {sum(v[0] for v in vals) / 10:.4f} | {sum(v[1] for v in vals) / 10:.3f} | "
              f"{sum(v[2] for v in vals) / 10:.1%} | {better} / 10 |")


if __name__ == "__main__":
    main()
