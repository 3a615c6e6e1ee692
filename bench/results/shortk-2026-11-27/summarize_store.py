"""store_ab.py's runs (base, new, new, base) side by side: per product, new over base on ecgemm's own time
(geometric mean of the two pairs), each against cuBLAS, and whether the checksums agree.

    python summarize_store.py base1.jsonl new1.jsonl new2.jsonl base2.jsonl
"""
import json
import math
import sys


def load(path):
    return {(r["op"], r["m"], r["k"], r["n"]): r for r in map(json.loads, open(path))}


def main(b1, n1, n2, b2):
    runs = [load(p) for p in (b1, n1, n2, b2)]
    print("| op | m x k x n | aligned | base x cuBLAS | new x cuBLAS | base / new | same bits |")
    print("|---|---|---|---:|---:|---:|---|")
    speedups = {True: [], False: []}
    for key in runs[0]:
        rs = [r[key] for r in runs]
        base = math.sqrt(rs[0]["ecgemm_us"] * rs[3]["ecgemm_us"])
        new = math.sqrt(rs[1]["ecgemm_us"] * rs[2]["ecgemm_us"])
        cub = [r["cublas_us"] for r in rs]
        aligned = key[3] % 4 == 0
        speedups[aligned].append(base / new)
        same = len({r["checksum"] for r in rs}) == 1
        print(f"| {key[0]} | {key[1]} x {key[2]} x {key[3]} | {'yes' if aligned else 'no'} | "
              f"{math.sqrt(cub[0] * cub[3]) / base:.2f} | {math.sqrt(cub[1] * cub[2]) / new:.2f} | "
              f"{base / new:.3f} | {'yes' if same else 'NO'} |")
    for aligned, xs in speedups.items():
        if xs:
            print(f"\n{'aligned' if aligned else 'off 16 bytes'}: base / new geomean "
                  f"{math.exp(sum(map(math.log, xs)) / len(xs)):.3f} over {len(xs)}, range {min(xs):.3f}-{max(xs):.3f}")


if __name__ == "__main__":
    main(*sys.argv[1:5])
