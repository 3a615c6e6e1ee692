"""Per family, × cuBLAS of ../cluster-2026-11-26/interleaved.py's rows (geometric mean), for this tree (NEW) and
main's (BASE) from one call, and new over old: behind the torch kernel (pair) and back to back (alone).

    python interleaved_summary.py NEW.json BASE.json
"""
import json
import math
import sys


def gm(xs):
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else float("nan")


def family(row):
    return row["route"].split("family=")[1].split()[0]


def main(new_path, base_path):
    new, base = (json.load(open(p))["rows"] for p in (new_path, base_path))
    print("| family | shapes | pair × cuBLAS old → new | alone × cuBLAS old → new | pair new over old |")
    print("|---|---:|---|---|---:|")
    for fam in sorted({family(r) for r in new}) + ["all"]:
        pairs = [(n, b) for n, b in zip(new, base) if fam in ("all", family(n))]
        x = lambda rows, t: gm([r[f"cublas{t}_us"] / r[f"ecgemm{t}_us"] for r in rows])  # noqa: E731
        ns, bs = [n for n, _ in pairs], [b for _, b in pairs]
        print(f"| {fam} | {len(pairs)} | {x(bs, '_pair'):.3f} → {x(ns, '_pair'):.3f} | {x(bs, ''):.3f} → "
              f"{x(ns, ''):.3f} | {gm([b['ecgemm_pair_us'] / n['ecgemm_pair_us'] for n, b in pairs]):.3f} |")


if __name__ == "__main__":
    main(*sys.argv[1:3])
