"""Refit one cost row from a bench.random sweep: the products whose tf32tf32 route matches PATTERN, their measured GPU
time, and the cost features the library computes for that route (ecgemm_internal_plan_on, no GPU), fitted by
tools/fit_cost_model.py's fit (non-negative least squares of the relative error). Unlike a calibration, the sweep
times only the routes the planner chose, so a row fitted here has seen the products its family wins, which is where
its price decides against its neighbours.

    ECGEMM_LIBRARY=... python refit_row.py PATTERN RESULTS.json.gz [--pin FAMILY] [--keep ROW --free I,J]

PATTERN: text of the recorded route ("method=fp32 tile=32x32", "tile=strips"); --pin: ECGEMM_FAMILY's syntax, for the
library's plan of each product (default: its own choice); a product whose plan differs from the recorded route is
left out and counted. --keep ROW (eight coefficients, comma-separated) --free I,J: refit only features I, J and keep
the others at ROW's values (the row's floor, where its price against its neighbours was calibrated head to head).
"""
import argparse
import gzip
import json
import pathlib
import sys

sys.path[:0] = [str(pathlib.Path(__file__).resolve().parents[3]), str(pathlib.Path(__file__).resolve().parents[3] / "tests")]
from tools import fit_cost_model as F  # noqa: E402


def main():
    p = argparse.ArgumentParser()
    p.add_argument("pattern")
    p.add_argument("results")
    p.add_argument("--pin", default=None)
    p.add_argument("--keep", default=None)
    p.add_argument("--free", default=None)
    args = p.parse_args()
    results = json.load(gzip.open(args.results))
    planner = F.Planner(results.get("env", {}))
    points, left_out = [], 0
    for section in ("gemm", "batched"):
        for row in results[section]:
            entry = row["methods"]["tf32tf32"]
            if args.pattern not in entry["route"]:
                continue
            gemm, batch = F.abi_call(row)
            planned = planner.plan("tf32tf32", args.pin, gemm, batch)
            if planned is None or planned[0].split(" est=")[0] != entry["route"].split(" est=")[0]:
                left_out += 1
                continue
            text, x = planned
            est = float(text.split("est=")[1].split("us")[0])
            points.append({"x": x, "us": entry["gpu_ms"] * 1e3, "est": est})
    import numpy as np
    t = np.array([q["us"] for q in points])
    if args.keep:
        from scipy.optimize import nnls
        coef = np.array([float(v) for v in args.keep.split(",")])
        free = [int(i) for i in args.free.split(",")]
        fixed = [i for i in range(len(coef)) if i not in free]
        X = np.array([q["x"] for q in points])
        rest = X[:, fixed] @ coef[fixed]
        coef[free], _ = nnls(X[:, free] / t[:, None], 1 - rest / t)  # relative error, as F.fit
        err = np.abs(np.log(np.maximum(X @ coef, 1e-9) / t))
        median, p90 = float(np.median(err)), float(np.percentile(err, 90))
    else:
        coef, median, p90 = F.fit(points)
    now = np.abs(np.log(np.array([q["est"] for q in points]) / t))
    print(f"{len(points)} points ({left_out} left out: another plan)")
    print(f"the library's row: median |log(est / measured)| {np.median(now):.3f}, 90th percentile {np.percentile(now, 90):.3f}")
    print(f"refit: median {median:.3f}, 90th percentile {p90:.3f}")
    print("{{" + ", ".join("%.6g" % c for c in coef) + "}}  //", ", ".join(F.FEATURES))


if __name__ == "__main__":
    main()
