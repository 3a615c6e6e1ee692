"""Call G: the tree (FP64 sums in the gemv family) against the baseline (FP32 sums), one machine. Seed 26's sweep:
for every product and batch whose route is gemv in both builds, our GPU time baseline / tree (geometric mean, range,
by kernel) and the residual over cuBLAS's in each build; every route's count above SGEMM's residual; big.py's
DRAM-bound products side by side.

    python bench/results/gemv-fp64-2026-12-07/compare.py [callG | callH | callI]

A call whose folder has no base sweep or big.py run of the base (call I, short of device time) takes call H's base
(the same sources, another H100): there each time ratio is of the two builds' times over cuBLAS's in their own
process. Where the call has big-always.jsonl (call I), the FP32 form's pinned products with FP64 sums everywhere.
"""
import gzip
import json
import math
import pathlib
import sys
from collections import defaultdict

HERE = pathlib.Path(__file__).resolve().parent
CALL = sys.argv[1] if len(sys.argv) > 1 else "callG"
MODES = ("tf32tf32", "halfhalf", "auto")


def geomean(xs):
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else math.nan


def kernel(route):
    """The gemv kernel a route string names (gemv.cu): short-k, lines, along k, along the long side."""
    if "lanes=" in route and "layout=along_k" in route:
        return "lines"
    return route.split("layout=")[1].split()[0] if "layout=" in route else route.split()[0]


def source(build, name):
    """The call's own file, or call H's base (the same sources) where the call has none."""
    own = HERE / CALL / build / name
    return own if own.exists() or build == "tree" else HERE / "callH" / build / name


CROSS = source("base", "big.jsonl").parent.parent.name != CALL  # the base ran in another process, on another H100


def sweep(build):
    return json.load(gzip.open(source(build, "random-26/results.json.gz")))


def ratio(b, t, ms="gpu_ms", peer=None):
    """Base / tree time: of times over cuBLAS's where the builds ran on different machines."""
    if not CROSS:
        return b[ms] / t[ms]
    return (b[ms] / b[peer]) / (t[ms] / t[peer])


def main():
    base, tree = sweep("base"), sweep("tree")
    print("| section | mode | gemv cases | base / tree time, geomean | min | max | fused_mma's FP32 form (cases) | "
          "other routes (same plan) |\n|---|---|---:|---:|---:|---:|---:|---:|")
    by_kernel = defaultdict(list)
    for section in ("gemm", "batched"):
        rb = {r["id"]: r for r in base[section] if "error" not in r}
        rt = {r["id"]: r for r in tree[section] if "error" not in r}
        for mode in MODES:
            gemv, form, other = [], [], []
            for i in sorted(set(rb) & set(rt)):
                mb, mt = rb[i]["methods"].get(mode, {}), rt[i]["methods"].get(mode, {})
                if "gpu_ms" not in mb or "gpu_ms" not in mt:
                    continue
                r = ratio(dict(mb, peer=rb[i]["methods"]["cublas"]["gpu_ms"]),
                          dict(mt, peer=rt[i]["methods"]["cublas"]["gpu_ms"]), peer="peer")
                if mb["route"].startswith("family=gemv") and mt["route"].startswith("family=gemv"):
                    gemv.append(r)
                    if section == "gemm" and mode == "tf32tf32":
                        k = rt[i]["k"]
                        by_kernel[(kernel(mt["route"]), "k<=16" if k <= 16 else "k>16")].append(r)
                elif all(x["route"].startswith("family=fused_mma method=fp32 ") for x in (mb, mt)):
                    form.append(r)  # call H's fp32_form_fp64.patch adds " sums=fp64" to some
                elif mb["route"].split(" est=")[0] == mt["route"].split(" est=")[0]:
                    other.append(r)
            print(f"| {section} | {mode} | {len(gemv)} | {geomean(gemv):.3f} | {min(gemv):.2f} | {max(gemv):.2f} | "
                  f"{geomean(form):.3f} ({len(form)}) | {geomean(other):.3f} ({len(other)}) |")
    print("\n| gemv kernel (tf32tf32, 2-D) | k | cases | base / tree time, geomean | min |\n|---|---|---:|---:|---:|")
    for (name, k), v in sorted(by_kernel.items()):
        print(f"| {name} | {k} | {len(v)} | {geomean(v):.3f} | {min(v):.2f} |")
    print("\n| build | mode | products | above SGEMM's residual (C >= 1e4) | max | above (any size) | of them gemv | max gemv "
          "| of them the FP32 form |\n|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for name, d in (("base", base), ("tree", tree)):
        for mode in MODES:
            rows = [(c, c["methods"][mode]) for c in d["gemm"] if "residual_ratio" in c["methods"].get(mode, {})]
            big = [m["residual_ratio"] for c, m in rows if c["m"] * c["n"] >= 1e4]
            above = [(c, m) for c, m in rows if m["residual_ratio"] > 1.0]
            g = [m["residual_ratio"] for c, m in rows if m["route"].startswith("family=gemv")]
            print(f"| {name} | {mode} | {len(rows)} | {sum(x > 1 for x in big)} | {max(big):.3f} | {len(above)} | "
                  f"{sum(m['route'].startswith('family=gemv') for c, m in above)} | {max(g):.3f} | "
                  f"{sum(m['route'].startswith('family=fused_mma method=fp32 ') for c, m in above)} |")
    print("\n| product | route (tree) | base µs | tree µs | base / tree | tree GB/s | × cuBLAS base / tree | residual base / tree / cuBLAS |\n"
          "|---|---|---:|---:|---:|---:|---:|---:|")
    rows = {}
    for name in ("base", "tree"):
        for line in open(source(name, "big.jsonl")):
            r = json.loads(line)
            rows.setdefault((r["batch"], r["m"], r["k"], r["n"], r["op"], r.get("pin", "")), {})[name] = r
    for (batch, m, k, n, op, pin), v in rows.items():
        if len(v) < 2:
            continue
        b, t = v["base"], v["tree"]
        print(f"| {batch} × {m}×{k}×{n} {op}{' ' + pin if pin else ''} | {t['route'].split(' workspace')[0][12:]} | {b['ms'] * 1e3:.1f} | "
              f"{t['ms'] * 1e3:.1f} | {ratio(b, t, 'ms', 'cublas_ms'):.3f} | {t['gbps']:.0f} | {b['cublas_ms'] / b['ms']:.2f} / "
              f"{t['cublas_ms'] / t['ms']:.2f} | {b['res']:.2e} / {t['res']:.2e} / {t['cublas_res']:.2e} |")
    always = HERE / CALL / "tree" / "big-always.jsonl"
    if always.exists():
        print("\n| FP32 form, pinned | tree's plan | tree µs | FP64 sums everywhere µs | always / tree time | "
              "× cuBLAS tree / always | residual tree / always / cuBLAS |\n|---|---|---:|---:|---:|---:|---:|")
        for line in open(always):
            a = json.loads(line)
            key = (a["batch"], a["m"], a["k"], a["n"], a["op"], a.get("pin", ""))
            t = rows.get(key, {}).get("tree")
            if not t or a.get("pin") != "fused_mma/fp32":
                continue
            print(f"| {a['batch']} × {a['m']}×{a['k']}×{a['n']} {a['op']} | {t['route'].split(' workspace')[0][12:]} | "
                  f"{t['ms'] * 1e3:.1f} | {a['ms'] * 1e3:.1f} | {a['ms'] / t['ms']:.3f} | {t['cublas_ms'] / t['ms']:.2f} / "
                  f"{a['cublas_ms'] / a['ms']:.2f} | {t['res']:.2e} / {a['res']:.2e} / {t['cublas_res']:.2e} |")


if __name__ == "__main__":
    main()
