"""Summary of ab.py's rows (ab.jsonl): per class (2-D products, batches), the geometric mean over the cases of
cuBLAS time / route time for the planner, simt's old tile, each piped tile and the fastest piped tile; how many
reach 0.95x; and the fastest piped tile's residual against cuBLAS's (2-D).

    python summary.py ab.jsonl
"""
import json
import math
import sys
from collections import defaultdict


def gmean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def main():
    rows = [json.loads(line) for line in open(sys.argv[1])]
    for label, keep in (("2-D products", lambda r: not r["batch"]), ("batches", lambda r: r["batch"])):
        part = [r for r in rows if keep(r)]
        if not part:
            continue
        ratios, wins = defaultdict(list), defaultdict(int)
        res = []
        for r in part:
            routes = r["routes"]
            for key, v in routes.items():
                ratios[key].append(r["cublas_ms"] / v["ms"])
            piped = {k: v for k, v in routes.items() if "piped" in k}
            if piped:
                key, best = min(piped.items(), key=lambda kv: kv[1]["ms"])
                wins[key] += 1
                ratios["best piped"].append(r["cublas_ms"] / best["ms"])
                ratios["best of planner, piped"].append(r["cublas_ms"] / min(best["ms"], routes["planner"]["ms"]))
                if r["cublas_res"] and best["res"]:
                    res.append(best["res"] / r["cublas_res"])
        print(f"## {label}: {len(part)} cases\n")
        print("| route | cases | x cuBLAS (geometric mean) | >= 0.95x | min | fastest piped on |")
        print("|---|---|---|---|---|---|")
        for key, xs in ratios.items():
            print(f"| {key} | {len(xs)} | {gmean(xs):.3f} | {sum(x >= 0.95 for x in xs)} | {min(xs):.2f} | "
                  f"{wins.get(key, '')} |")
        if res:
            print(f"\nfastest piped tile's residual / cuBLAS's: max {max(res):.2f}, above 1.0 on {sum(x > 1 for x in res)}"
                  f" of {len(res)}\n")


if __name__ == "__main__":
    main()
