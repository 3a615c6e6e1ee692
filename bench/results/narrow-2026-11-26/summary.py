"""The comparisons this folder's README quotes, from the calls' outputs:

    python summary.py narrow CALL_DIR            # narrow_ab.py with fused_wgmma pinned, this tree (ab.json.gz)
                                                 # against main (ab-base.json.gz): x cuBLAS new over old
    python summary.py aligned CALL_DIR           # aligned_ab.py, this tree against main: routes that changed
    python summary.py random NEW_RUN BASE_RUN    # bench.random's results.json of two trees: routes that changed
"""
import gzip
import json
import math
import sys


def load(path):
    return json.load(gzip.open(path) if path.endswith(".gz") else open(path))


def gm(xs):
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else float("nan")


def narrow(d):
    new, base = load(f"{d}/ab.json.gz"), load(f"{d}/ab-base.json.gz")
    print(new["device"])
    rows = list(zip(new["rows"], base["rows"]))
    half = len(rows) // 2  # shapes.txt: the sampled shapes, then the same shapes aligned
    for name, part in (("as sampled (TMA cannot address most)", rows[:half]), ("aligned (TMA)", rows[half:])):
        r = [(b["methods"]["fused_wgmma"]["us"] / b["methods"]["cublas"]["us"])
             / (a["methods"]["fused_wgmma"]["us"] / a["methods"]["cublas"]["us"]) for a, b in part]
        own = [a["methods"]["cublas"]["us"] / a["methods"]["-"]["us"] for a, b in part]
        print(f"{name}: fused_wgmma pinned x cuBLAS, this tree over main: {gm(r):.3f} "
              f"(min {min(r):.3f}, max {max(r):.3f}); this tree's planner route x cuBLAS {gm(own):.3f}")


def changed(pairs, key):
    """pairs: (new, base, label) of one method; the routes that changed and this tree's time over main's."""
    moved = [(n, b, label) for n, b, label in pairs if n["route"].split(" est=")[0] != b["route"].split(" est=")[0]]
    r = [key(n) / key(b) for n, b, _ in moved]
    print(f"  {len(pairs)} cases, {len(moved)} changed route: x cuBLAS new over old {gm(r):.3f}"
          + (f" (min {min(r):.2f}, max {max(r):.2f})" if r else ""))
    for (n, b, label), x in zip(moved, r):
        print(f"    {label}: {b['route'].split()[0]} -> {' '.join(n['route'].split()[:4])} ({x:.2f})")


def aligned(d):
    new, base = load(f"{d}/aligned.json.gz"), load(f"{d}/aligned-base.json.gz")
    print(new["device"])
    for mode in ("tf32tf32", "halfhalf"):
        for part, batched in (("2-D", False), ("batches", True)):
            pairs = []
            for n, b in zip(new["rows"], base["rows"]):
                if (n["batch"] > 1) != batched:
                    continue
                for row in (n, b):
                    row["methods"][mode]["x"] = row["methods"]["cublas"]["us"] / row["methods"][mode]["us"]
                pairs.append((n["methods"][mode], b["methods"][mode],
                              f"{n['batch']} x {n['m']} x {n['k']} x {n['n']} {n['op']}"))
            xs_new = [p[0]["x"] for p in pairs]
            xs_old = [p[1]["x"] for p in pairs]
            print(f"{mode} {part}: x cuBLAS {gm(xs_old):.3f} -> {gm(xs_new):.3f}")
            changed(pairs, lambda m: m["x"])


def random_runs(new_path, base_path):
    new, base = load(new_path), load(base_path)
    for section in ("gemm", "batched"):
        for mode in ("tf32tf32", "halfhalf", "auto"):
            print(f"{section} {mode}:")
            changed([(n["methods"][mode], b["methods"][mode],
                      f"{n['id']} {n.get('batch', 1)} x {n['m']} x {n['k']} x {n['n']}")
                     for n, b in zip(new[section], base[section])], lambda m: m["x_cublas"])


if __name__ == "__main__":
    {"narrow": lambda: narrow(sys.argv[2]), "aligned": lambda: aligned(sys.argv[2]),
     "random": lambda: random_runs(sys.argv[2], sys.argv[3])}[sys.argv[1]]()
