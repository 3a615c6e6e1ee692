"""Two pinned_ab.py runs side by side: time over time per (product, mode), and the geometric mean.

    python ab_table.py NEW.jsonl BASE.jsonl
"""
import json
import math
import sys


def load(path):
    return {(r["op"], r["m"], r["k"], r["n"], r["mode"]): r for r in map(json.loads, open(path))}


def main(new_path, base_path):
    new, base = load(new_path), load(base_path)
    logs = []
    for key, r in new.items():
        b = base[key]
        logs.append(math.log(b["us"] / r["us"]))
        print(f"{key[0]} {key[1]} x {key[2]} x {key[3]} {key[4]}: {b['us']:.1f} -> {r['us']:.1f} us "
              f"(x cuBLAS {b['x_cublas']:.2f} -> {r['x_cublas']:.2f}), {b['us'] / r['us']:.3f}")
    print(f"geomean new over base (time ratio base/new): {math.exp(sum(logs) / len(logs)):.3f} over {len(logs)}")


if __name__ == "__main__":
    main(*sys.argv[1:3])
