"""Call 2's A/B (changed_ab.py's four runs, base, new, new, base) by k band and by whether the new build interleaves
the rows (bench.random's batches are torch.bmm's NN: ecgemm's m is torch's n, A's columns and C's are m floats apart,
so a batch interleaves iff torch's n % 4 != 0 in call 2's build; and at k = 1, where the binding describes the one-row
operand with ld = 1, python/ecgemm/_layout.py's column_major_ld, so A's column stride is 1), and what the landed rule
(interleaved from k = 8 only) keeps: the cases at k >= 8.

    python by_k.py call2 > call2/by-k.txt
"""
import gzip
import json
import math
import sys


def gm(xs):
    xs = list(xs)
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else float("nan")


def main(folder):
    runs = {n: [json.loads(line) for line in gzip.open(f"{folder}/ab-{n}.jsonl.gz")]
            for n in ("base1", "new1", "new2", "base2")}
    cases = []
    for i, r in enumerate(runs["new1"]):
        t = lambda names: gm(runs[x][i]["tf32tf32"]["us"] for x in names)  # noqa: E731
        base, new = t(("base1", "base2")), t(("new1", "new2"))
        cases.append(dict(r, base=base, new=new, peer=gm(runs[x][i]["peer_us"] for x in runs)))
    band = lambda k: "k <= 3" if k <= 3 else "k = 4..7" if k < 8 else "k >= 8"  # noqa: E731
    print("| batches | k | interleaved in call 2 | cases | base / new (geometric mean) | min | max |")
    print("|---|---|---|---:|---:|---:|---:|")
    groups = {}
    for c in cases:
        kind = "batch" if c["batch"] > 1 else "2-D"
        inter = "yes" if c["batch"] > 1 and (c["n"] % 4 or c["k"] == 1) else ("no" if c["batch"] > 1 else "by layout")
        groups.setdefault((kind, band(c["k"]), inter), []).append(c["base"] / c["new"])
    for key in sorted(groups):
        v = groups[key]
        print(f"| {key[0]} | {key[1]} | {key[2]} | {len(v)} | {gm(v):.3f} | {min(v):.3f} | {max(v):.3f} |")
    kept = [c for c in cases if c["k"] >= 8]
    print(f"\nLanded rule (interleaved from k = 8): the {len(kept)} cases at k >= 8 ran base / new "
          f"{gm(c['base'] / c['new'] for c in kept):.3f} ({sum(c['base'] >= c['new'] for c in kept)} at >= 1.0); "
          f"x torch.bmm / cuBLAS {gm(c['peer'] / c['base'] for c in kept):.3f} -> {gm(c['peer'] / c['new'] for c in kept):.3f}; "
          f"at >= 0.95x {sum(c['peer'] / c['base'] >= 0.95 for c in kept)} -> {sum(c['peer'] / c['new'] >= 0.95 for c in kept)}. "
          f"Below k = 8 the landed build runs the consecutive rows, as the base does.")
    print("\n| case | m × k × n (torch) | base µs | new µs | base / new | new × peer |")
    print("|---|---|---:|---:|---:|---:|")
    for c in sorted(kept, key=lambda c: c["base"] / c["new"]):
        size = f"{c['batch']} × " if c["batch"] > 1 else ""
        print(f"| {c['seed']} {c['id']} | {size}{c['m']} × {c['k']} × {c['n']} {c['op']} | {c['base']:.1f} | "
              f"{c['new']:.1f} | {c['base'] / c['new']:.3f} | {c['peer'] / c['new']:.3f} |")


if __name__ == "__main__":
    main(sys.argv[1])
