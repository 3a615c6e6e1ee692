"""The two measurements this folder's constants carry, from shortk-2026-11-27 call 8's random sweep (seed 26, H100;
no GPU needed here):

    python measured.py guard    AUTO's time over tf32tf32's where both ran the same fused_mma Tensor Core plan
                                (kFusedMmaGuardCost)
    python measured.py floor    the rate, as a fraction of the H100's peak DRAM bandwidth, at which the plans the DRAM
                                floor priced ran (kDramEfficiency); needs libecgemm (ECGEMM_LIBRARY) for the plans'
                                megabytes: 837fb59's, which plans as call 8 did (another library's plans that differ
                                are left out)
"""
import gzip
import json
import math
import pathlib
import re
import statistics
import sys

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[2]
SWEEP = HERE.parent / "shortk-2026-11-27" / "call8" / "random-26" / "results.json.gz"
H100_GBPS = 3352.0
FLOOR_THEN = 0.85  # kDramEfficiency when call 8 ran


def geomean(xs):
    return math.exp(sum(map(math.log, xs)) / len(xs))


def plan(route):
    """A route without what differs between AUTO's and tf32tf32's text of one plan."""
    return re.sub(r" (wide=fp32|est=\S+|workspace=\S+)", "", route)


def guard(data):
    for kind in ("gemm", "batched"):
        ratios = []
        for case in data[kind]:
            t, a = case["methods"].get("tf32tf32", {}), case["methods"].get("auto", {})
            if "gpu_ms" in t and "gpu_ms" in a and t["family"] == "fused_mma" and "method=fp32" not in t["route"] \
                    and plan(t["route"]) == plan(a["route"]):
                ratios.append(a["gpu_ms"] / t["gpu_ms"])
        print(f"{kind}: {len(ratios)} products, AUTO / tf32tf32 geometric mean {geomean(ratios):.3f}, "
              f"median {statistics.median(ratios):.3f}")


def floor(data):
    sys.path[:0] = [str(ROOT), str(ROOT / "tests")]
    import tools.fit_cost_model as fit
    planner = fit.Planner(data["env"])
    planner.device.dram_gbps = H100_GBPS  # as the handle read it
    rates = {}
    for case in data["gemm"]:
        call = fit.abi_call(case)
        for mode in ("tf32tf32", "halfhalf", "auto"):
            m = case["methods"].get(mode, {})
            if "gpu_ms" not in m:
                continue
            text, x = planner.plan(mode, None, *call)
            est = float(re.search(r"est=([\d.]+)us", m["route"]).group(1))
            if re.sub(r" est=\S+", "", text) != re.sub(r" est=\S+", "", m["route"]):
                continue  # this library plans it otherwise: its megabytes may differ
            floor_us = x[4] / (FLOOR_THEN * H100_GBPS) * 1e3
            if floor_us >= 0.98 * est:  # the estimate stood on the floor
                rates.setdefault(m["family"], []).append(x[4] / (m["gpu_ms"] * 1e3) * 1e3 / H100_GBPS)
    for family, r in sorted(rates.items()):
        print(f"{family}: {len(r)} plans on the floor ran at {statistics.median(r):.3f} of peak (median), "
              f"{min(r):.3f} … {max(r):.3f}")


if __name__ == "__main__":
    data = json.load(gzip.open(SWEEP))
    {"guard": guard, "floor": floor}[sys.argv[1]](data)
