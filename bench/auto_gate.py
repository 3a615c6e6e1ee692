"""AUTO's accuracy gate (issue 26): AUTO becomes the default only at or below cuBLAS SGEMM's residual on
every data set here, on the same FP32 inputs in the same process.

`python -m bench.auto_gate [--shapes 256x1024x256,4096x4096x4096,8192x8192x8192] [--out DIR]`: for each
shape and data set (the paper's four exponent types, rows of A scaled across 2^-100 … 2^100, one 2^40
outlier per row of A), the relative Frobenius residual against the FP64 product and the componentwise
error max_ij |C - C64|_ij / (|A|·|B|)_ij of cuBLAS SGEMM, tf32tf32, halfhalf and AUTO, each also as a
ratio to SGEMM's. Markdown on stdout, results.json and table.md in --out.
"""
import argparse
import math
import sys
from pathlib import Path

import ecgemm
from bench.inputs import EXP_TYPES, exp_pair, outlier_rows, rows_scaled
from bench.report import write_section

MODES = ("tf32tf32", "halfhalf", "auto")
SGEMM = "cublas_sgemm"
SHAPES = ((256, 1024, 256), (4096, 4096, 4096), (8192, 8192, 8192))
# Each data set: (label, operands(m, k, n) as float32 NumPy arrays).
DATA = tuple((f"type {t}", lambda m, k, n, t=t: exp_pair(t, m, k, n, seed=t)) for t in EXP_TYPES) + (
    ("rows 2^-100..2^100", lambda m, k, n: rows_scaled(m, k, n, -100, 100, seed=100)),
    ("one 2^40 outlier a row", lambda m, k, n: outlier_rows(m, k, n, 40, seed=40)),
)


def errors(torch, c, a64, b64, ref):
    """(relative Frobenius residual, componentwise max error) of c against the FP64 product ref."""
    diff = (c.double() - ref).abs()
    frob = (torch.linalg.norm(diff) / torch.linalg.norm(ref)).item()
    bound = a64.abs() @ b64.abs()
    comp = (diff / bound)[bound > 0].max().item()
    return frob, comp


def ratio(x, base):
    return x / base if base and math.isfinite(x) and math.isfinite(base) else float("nan")


def run(shapes):
    import torch
    torch.backends.cuda.matmul.allow_tf32 = False
    rows = []
    for m, k, n in shapes:
        for label, make in DATA:
            a_host, b_host = make(m, k, n)
            a, b = torch.from_numpy(a_host).cuda(), torch.from_numpy(b_host).cuda()
            a64, b64 = a.double(), b.double()
            ref = a64 @ b64
            out = torch.empty(m, n, device="cuda")
            calls = {SGEMM: lambda: torch.matmul(a, b, out=out)}
            for mode in MODES:
                calls[mode] = lambda mode=mode: ecgemm.matmul(a, b, out=out, mode=mode)
            found = {}
            for name, call in calls.items():
                out.fill_(float("nan"))  # an unwritten element shows as NaN
                call()
                torch.cuda.synchronize()
                found[name] = errors(torch, out, a64, b64, ref)
            base = found[SGEMM]
            for name, (frob, comp) in found.items():
                rows.append({"shape": [m, k, n], "data": label, "method": name, "residual": frob,
                             "componentwise": comp, "x_sgemm_residual": ratio(frob, base[0]),
                             "x_sgemm_componentwise": ratio(comp, base[1])})
            print(f"  {m}x{k}x{n} {label}: " + ", ".join(f"{nm} {f:.2e}" for nm, (f, _) in found.items()),
                  file=sys.stderr)
            del a, b, a64, b64, ref, out
            torch.cuda.empty_cache()
    return rows


def misses(rows, method="auto"):
    """The rows where `method` is above SGEMM's residual or componentwise error."""
    return [r for r in rows if r["method"] == method and
            not (r["x_sgemm_residual"] <= 1.0 and r["x_sgemm_componentwise"] <= 1.0)]


def markdown(results):
    rows = results["rows"]
    lines = [f"# AUTO's accuracy gate — {results['device']}", "",
             "Relative Frobenius residual ‖C − C64‖/‖C64‖ and componentwise max |C − C64| / (|A|·|B|) against "
             "the FP64 product of the same FP32 inputs; × SGEMM is the ratio to cuBLAS SGEMM's on the same inputs "
             "(at most 1.00 passes). Exponent types: " +
             ", ".join(f"{t}: A {a}, B {b}" for t, (a, b) in EXP_TYPES.items()) + ".", "",
             "| shape | data | method | residual | × SGEMM | componentwise | × SGEMM |",
             "|---|---|---|---:|---:|---:|---:|"]
    for r in rows:
        m, k, n = r["shape"]
        lines.append(f"| {m}×{k}×{n} | {r['data']} | {r['method']} | {r['residual']:.2e} | "
                     f"{r['x_sgemm_residual']:.2f} | {r['componentwise']:.2e} | {r['x_sgemm_componentwise']:.2f} |")
    missed = misses(rows)
    lines += ["", f"AUTO above SGEMM: {len(missed)} of {sum(r['method'] == 'auto' for r in rows)} cases" +
              ("" if not missed else ": " + "; ".join(
                  f"{'×'.join(map(str, r['shape']))} {r['data']} ({r['x_sgemm_residual']:.2f} / "
                  f"{r['x_sgemm_componentwise']:.2f})" for r in missed))]
    return "\n".join(lines)


def parse_shapes(text):
    return [tuple(int(x) for x in s.split("x")) for s in text.split(",") if s]


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m bench.auto_gate", description=__doc__)
    parser.add_argument("--shapes", type=parse_shapes, default=list(SHAPES), metavar="MxKxN,...")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(argv)
    results = {"device": ecgemm._device_properties(0)["name"], "rows": run(args.shapes)}
    write_section(args.out, results, markdown(results))


if __name__ == "__main__":
    main()
