"""AUTO's GPU time against tf32tf32's on the same case and route class (issue 26's gate: AUTO at least tf32tf32's
speed on every shape), for each bench.random results file given: geometric mean of t(tf32tf32) / t(auto), the share
at >= 1.0 and >= 0.95, the minimum, per route class and overall.

    python auto_over_tf32.py RESULTS.json[.gz] [RESULTS.json[.gz] ...]
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "cluster-2026-11-26"))
from compare import gm, load, route_class  # noqa: E402


def summary(path):
    res = load(path)
    print(f"{path}:")
    for part in ("gemm", "batched"):
        groups = {}
        for case in res[part]:
            t, a = case["methods"].get("tf32tf32"), case["methods"].get("auto")
            if not t or not a or not t.get("gpu_ms") or not a.get("gpu_ms"):
                continue
            ratio = t["gpu_ms"] / a["gpu_ms"]
            groups.setdefault(route_class(a), []).append(ratio)
            groups.setdefault("all", []).append(ratio)
        for key, v in sorted(groups.items(), key=lambda kv: (kv[0] != "all", kv[0])):
            print(f"  {part} {key}: {gm(v):.3f} ({len(v)}; >= 1.0 {sum(x >= 1 for x in v) / len(v):.0%}, "
                  f">= 0.95 {sum(x >= 0.95 for x in v) / len(v):.0%}, min {min(v):.2f})")


if __name__ == "__main__":
    for p in sys.argv[1:]:
        summary(p)
