"""Call 1's calibration (gemv pinned) measured call 1's plan rules; this tree's rules plan some of its points
differently. Keep the points whose recorded gemv plan is the one this build's planner makes (a described H100),
so that tools.fit_cost_model fits measured times to the features of the plans that ran.

    python keep_this_trees_plans.py RAW.json.gz OUT.json.gz      (needs the built library, as fit_cost_model)
"""
import gzip
import json
import sys

from tools.fit_cost_model import Planner, abi_call

planner = Planner({"compute_capability": "9.0", "sms": 132})
run = json.load(gzip.open(sys.argv[1]))
for section in ("gemm", "batched"):
    kept = []
    for case in run[section]:
        gemm, batch = abi_call(case)
        timed = [(name, entry) for name, entry in case["methods"].items() if "@gemv" in name and "route" in entry]
        plans = [planner.plan(name.split("@")[0], "gemv", gemm, batch) for name, _ in timed]
        if all(p is not None and p[0].split(" est=")[0] == e["route"].split(" est=")[0]
               for p, (_, e) in zip(plans, timed)):
            kept.append(case)
    print(f"{section}: kept {len(kept)} of {len(run[section])}")
    run[section] = kept
json.dump(run, gzip.open(sys.argv[2], "wt"))
