"""README's residual column from a bench.random results.json[.gz]: per mode, the 2-D products with C of at least 10^4
elements whose residual is above 1.1x cuBLAS SGEMM's on the same inputs, of how many, and the largest ratio.

    python residuals.py results.json.gz
"""
import gzip
import json
import sys


def main(path):
    results = json.load(gzip.open(path) if path.endswith(".gz") else open(path))
    for mode in results["modes"]:
        ratios = [c["methods"][mode]["residual"] / c["methods"]["cublas"]["residual"] for c in results["gemm"]
                  if c["m"] * c["n"] >= 10 ** 4 and c["methods"].get(mode, {}).get("residual")
                  and c["methods"]["cublas"].get("residual")]
        print(f"{mode}: {sum(r > 1.1 for r in ratios)} of {len(ratios)} above 1.1x SGEMM's residual, "
              f"max {max(ratios):.2f}x")


if __name__ == "__main__":
    main(sys.argv[1])
