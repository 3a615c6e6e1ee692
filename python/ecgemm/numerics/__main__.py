"""python -m ecgemm.numerics: print the paper's tables; --plot DIR draws the figures;
--auto-blocks DIR runs the study of AUTO with per-k-block scales, --three-part DIR the study
of tf32tf32's error sources on wide data (each writes results.json and table.md)."""

from __future__ import annotations

import argparse
import json
import math
import os
import sys

from .mantissa import expected_kept_length, kept_length_distribution
from .underflow import underflow_theory


def _print_tables() -> None:
    for label, method, rounding in (("halfhalf, RN (Table 1)", "half", None),
                                    ("halfhalf, RZ (Table 2)", "half", "rz"),
                                    ("tf32tf32, RNA", "tf32", None)):
        dist = kept_length_distribution(method, rounding)
        cells = ", ".join(f"P({bits}) = {p}" for bits, p in sorted(dist.items(), reverse=True))
        print(f"{label:24s} mean {float(expected_kept_length(dist)):.2f} bits: {cells}")
    print("\nUnderflow of lo (the paper's formulas, RZ): P_u, P_u+gu")
    print(" e_v | Markidis: lo = fp16(v - hi) | halfhalf: lo = fp16((v - hi) 2^11)")
    for e_v in range(-14, 12, 2):
        plain, scaled = underflow_theory(e_v), underflow_theory(e_v, scaled=True)
        print(f"{e_v:4d} | {float(plain[0]):10.6f} {float(plain[1]):10.6f}     "
              f"| {float(scaled[0]):10.6f} {float(scaled[1]):10.6f}")


def _plain(value):
    """JSON has no Inf or NaN: such numbers are written as the strings "inf", "-inf", "nan"."""
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if isinstance(value, dict):
        return {key: _plain(v) for key, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def _write_study(outdir: str, results: dict, table: str) -> None:
    os.makedirs(outdir, exist_ok=True)
    with open(os.path.join(outdir, "results.json"), "w", encoding="utf-8") as f:
        json.dump(_plain(results), f, indent=1, ensure_ascii=False)
        f.write("\n")
    with open(os.path.join(outdir, "table.md"), "w", encoding="utf-8") as f:
        f.write(table)
    print(os.path.join(outdir, "table.md"))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ecgemm.numerics", description=__doc__)
    parser.add_argument("--plot", metavar="DIR", help="write the PNG figures into DIR")
    parser.add_argument("--auto-blocks", metavar="DIR",
                        help="run the per-k-block scaling study, write results.json and table.md")
    parser.add_argument("--three-part", metavar="DIR",
                        help="run the study of tf32tf32's error sources on wide data (three-part split, "
                             "Tensor Core accumulation, two-level promotion), write results.json and table.md")
    parser.add_argument("--workers", type=int, default=2,
                        help="processes for --auto-blocks and --three-part (default 2)")
    args = parser.parse_args(argv)
    if args.auto_blocks is not None:
        from .experiments import block_scaling_study, block_scaling_table
        results = block_scaling_study(workers=args.workers)
        _write_study(args.auto_blocks, results, block_scaling_table(results))
        return 0
    if args.three_part is not None:
        from .experiments import split_error_study, split_error_table
        results = split_error_study(workers=args.workers)
        _write_study(args.three_part, results, split_error_table(results))
        return 0
    if args.plot is None:
        _print_tables()
        return 0
    from .plots import plot_all
    try:
        paths = plot_all(args.plot)
    except ImportError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    for path in paths:
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
