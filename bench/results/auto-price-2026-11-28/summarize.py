"""Tables of this folder's runs.

    python summarize.py ab BASE1 NEW1 NEW2 BASE2      changed_ab.py's four runs: each case's time base / new
                                                       (geometric mean of its two runs a build), routes, residuals
    python summarize.py probe PROBE.jsonl              probe.py: each pin's time over tf32tf32's planned route
    python summarize.py tile32 BASE1 NEW1 NEW2 BASE2  tile32_ab.py's four runs: base / new by kind and mode, the
                                                       plans that moved, whether the bits agree
"""
import json
import math
import sys


def rows(path):
    return [json.loads(line) for line in open(path)]


def gm(xs):
    xs = list(xs)
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else float("nan")


def ab(base1, new1, new2, base2):
    runs = {name: rows(p) for name, p in (("b1", base1), ("n1", new1), ("n2", new2), ("b2", base2))}
    print("| case | m × k × n | mode | base route | new route | base µs | new µs | base / new | new × peer | "
          "new residual × peer's | tf32tf32 µs | tf32tf32 µs / new µs |")
    print("|---|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|")
    ratios = []
    for i, r in enumerate(runs["n1"]):
        mode = r["mode"]
        t = lambda run: gm((runs[x][i][mode]["us"] for x in run))  # noqa: E731
        base, new = t(("b1", "b2")), t(("n1", "n2"))
        peer = gm(runs[x][i]["peer_us"] for x in runs)
        tf32 = gm(runs[x][i]["tf32tf32"]["us"] for x in ("n1", "n2"))
        ratios.append(base / new)
        short = lambda s: s.replace("family=", "").split(" workspace")[0]  # noqa: E731
        size = f"{r['batch']} × " if r["batch"] > 1 else ""
        print(f"| {r['seed']} {r['id']} | {size}{r['m']} × {r['k']} × {r['n']} {r['op']} | {mode} | "
              f"{short(runs['b1'][i][mode]['route'])} | {short(r[mode]['route'])} | {base:.1f} | {new:.1f} | "
              f"{base / new:.3f} | {peer / new:.3f} | {r[mode]['residual_ratio']:.3f} | {tf32:.1f} | {tf32 / new:.3f} |")
    print(f"\n{len(ratios)} cases: base / new {gm(ratios):.3f} (geometric mean), {min(ratios):.3f} … "
          f"{max(ratios):.3f}; {sum(x >= 1 for x in ratios)} at ≥ 1.0")


def probe(path):
    data = rows(path)
    pins = [k for k in data[0] if isinstance(data[0][k], dict)]
    print("| m × k × n | mode | cuBLAS µs | " + " | ".join(pins) + " | planner route |")
    print("|---|---|---:|" + "---:|" * len(pins) + "---|")
    for r in data:
        ref = r["planner"]["us"]
        cells = [f"{r[p]['us']:.1f}" + ("" if p == "planner" else f" ({ref / r[p]['us']:.2f})") for p in pins]
        route = r["planner"]["route"].replace("family=", "").split(" workspace")[0]
        print(f"| {r['m']} × {r['k']} × {r['n']} {r['op']} | {r['mode']} | {r['cublas_us']:.1f} | " +
              " | ".join(cells) + f" | {route} |")
    print("\n(each pin: µs, and in brackets the planner's time over the pin's: above 1, the pin ran faster)")


def tile32(base1, new1, new2, base2):
    runs = [rows(p) for p in (base1, new1, new2, base2)]
    plan = lambda r: r["route"].split(" est=")[0]  # noqa: E731
    groups, moved, differ = {}, [], 0
    for b1, n1, n2, b2 in zip(*runs):
        ratio = gm((b1["us"], b2["us"])) / gm((n1["us"], n2["us"]))
        key = ("batched" if b1["batch"] > 1 else "2-D", b1["mode"], plan(b1) == plan(n1))
        groups.setdefault(key, []).append(ratio)
        differ += plan(b1) == plan(n1) and b1["bits"] != n1["bits"]
        if plan(b1) != plan(n1):
            moved.append((ratio, b1, n1))
    print("| products | mode | plan | cases | base / new (geometric mean) | min | max |")
    print("|---|---|---|---:|---:|---:|---:|")
    for (kind, mode, same), r in sorted(groups.items()):
        print(f"| {kind} | {mode} | {'same' if same else 'moved'} | {len(r)} | {gm(r):.3f} | {min(r):.3f} | {max(r):.3f} |")
    everything = [x for r in groups.values() for x in r]
    print(f"\nall {len(everything)}: {gm(everything):.3f}; same plan and different bits: {differ}")
    for ratio, b, n in sorted(moved, key=lambda t: t[0]):
        print(f"- {ratio:.3f} {b['id']} {b['mode']} {b['batch']} x {b['m']} x {b['k']} x {b['n']}: {plan(b)} -> {plan(n)}")


if __name__ == "__main__":
    {"ab": ab, "probe": probe, "tile32": tile32}[sys.argv[1]](*sys.argv[2:])
