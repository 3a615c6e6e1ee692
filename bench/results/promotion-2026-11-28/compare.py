"""residuals.py's files of several builds side by side: for each mode and pin, by k, the Frobenius residual over
cuBLAS SGEMM's (geometric mean over sides, data and seeds; the largest; how many cases above 1.0) and, on scaled data,
the componentwise error over cuBLAS's (geometric mean).

    python compare.py NAME=FILE.jsonl ...
    python compare.py --ab BASE1 NEW1 NEW2 BASE2     (changed_ab.py's files: each mode's time, base / new, by k)
"""
import json
import math
import sys


def gm(xs):
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else float("nan")


def main(named):
    runs = {}
    for item in named:
        name, path = item.split("=", 1)
        runs[name] = [json.loads(line) for line in open(path)]
    first = next(iter(runs.values()))
    keys = [k for k in first[0] if "/" in k]
    for key in keys:
        print(f"\n## {key}\n")
        print("| k | " + " | ".join(f"{n}: gm / max / >1 | {n}: componentwise (scaled)" for n in runs) + " |")
        print("|---:|" + "---:|---:|" * len(runs))
        for k in sorted({r["k"] for r in first}):
            cells = []
            for rows in runs.values():
                sel = [r for r in rows if r["k"] == k and key in r]
                fro = [r[key]["err"][0] / r["cublas"][0] for r in sel]
                comp = [r[key]["err"][1] / r["cublas"][1] for r in sel if r["data"] == "scaled"]
                cells.append(f"{gm(fro):.3f} / {max(fro):.3f} / {sum(x > 1.0 for x in fro)} of {len(fro)}")
                cells.append(f"{gm(comp):.3f}")
            print(f"| {k} | " + " | ".join(cells) + " |")
    print("\nRoutes (first build, planner):")
    for key in keys:
        if key.endswith("/planner"):
            routes = {}
            for r in first:
                routes.setdefault(r[key]["route"].split(" est=")[0], []).append(r["k"])
            for route, ks in sorted(routes.items()):
                print(f"- {key}: {route}: k {min(ks)}..{max(ks)} ({len(ks)})")


def ab(base1, new1, new2, base2):
    runs = [[json.loads(line) for line in open(p)] for p in (base1, new1, new2, base2)]
    bands = ((1, 64), (65, 128), (129, 512), (513, 1 << 40))
    print("| mode | k | cases | base / new (geometric mean) | min | max | residual over cuBLAS's, base → new (gm) |")
    print("|---|---|---:|---:|---:|---:|---|")
    for mode in ("tf32tf32", "halfhalf"):
        for lo, hi in bands + ((1, 1 << 40),):
            ratio, rb, rn = [], [], []
            for i, r in enumerate(runs[1]):
                if mode not in r or not lo <= r["k"] <= hi:
                    continue
                base = gm([runs[0][i][mode]["us"], runs[3][i][mode]["us"]])
                new = gm([runs[1][i][mode]["us"], runs[2][i][mode]["us"]])
                ratio.append(base / new)
                rb.append(runs[0][i][mode]["residual_ratio"])
                rn.append(r[mode]["residual_ratio"])
            if ratio:
                band = "all" if hi == 1 << 40 and lo == 1 else f"{lo}..{hi if hi < 1 << 40 else ''}"
                print(f"| {mode} | {band} | {len(ratio)} | {gm(ratio):.3f} | {min(ratio):.3f} | {max(ratio):.3f} | "
                      f"{gm(rb):.3f} → {gm(rn):.3f} |")


if __name__ == "__main__":
    if sys.argv[1] == "--ab":
        ab(*sys.argv[2:6])
    else:
        main(sys.argv[1:])
