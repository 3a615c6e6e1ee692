"""The paper's accuracy experiments, run on the CPU emulator at small sizes, and the
study of AUTO with per-k-block scales (issue 26)."""

from __future__ import annotations

import time
from typing import Iterable

import numpy as np

from .auto import auto_choice
from .auto_blocks import auto_block_gemm, block_choice
from .emulator import gemm, relative_residual
from .exp_rand import exp_rand
from .three_part import three_part_gemm

# (label, mode, options) for the paper's Figure 5: Markidis' method on mma_rz (what
# Tensor Cores do) and mma_rn, against FP32 and ecgemm's corrected modes.
FIGURE5_CURVES = (
    ("FP32 (sequential FMA)", "fp32", {}),
    ("Markidis, mma_rz", "markidis", {"rounding": "rz"}),
    ("Markidis, mma_rn", "markidis", {"rounding": "rn"}),
    ("halfhalf, RN promotion", "halfhalf", {"rounding": "rz"}),
    ("tf32tf32, RN promotion", "tf32tf32", {"rounding": "rz"}),
    ("TF32, one pass", "tf32", {"rounding": "rz"}),
)


def accumulation_experiment(ks: Iterable[int], m: int = 16, n: int = 16, repeats: int = 4,
                            curves=FIGURE5_CURVES, rng=None) -> dict[str, list[float]]:
    """Mean relative residual (the paper's Eq. 8) of each curve for each k.

    A (m x k) and B (k x n) are uniform on (-1, 1), as in the paper's Figures 1 and 5;
    `repeats` independent pairs per k are averaged, the same pairs for every curve.
    """
    rng = np.random.default_rng(rng)
    results: dict[str, list[float]] = {label: [] for label, _, _ in curves}
    for k in ks:
        a = rng.uniform(-1.0, 1.0, (repeats, m, k)).astype(np.float32)
        b = rng.uniform(-1.0, 1.0, (repeats, k, n)).astype(np.float32)
        for label, mode, options in curves:
            c = gemm(a, b, mode, **options)
            results[label].append(float(np.mean(
                [relative_residual(c[r], a[r], b[r]) for r in range(repeats)])))
    return results


# --- AUTO with per-k-block scales (issue 26; docs/numerics.md, section 10) --------------

# m x k x n: the issue's shape, a short k (one block) and a long k (64 blocks of 64).
BLOCK_STUDY_SHAPES = ((256, 1024, 256), (256, 16, 256), (64, 4096, 64))
BLOCK_STUDY_SEED = 26


def _urand(rng, shape, low=-1.0):
    return rng.uniform(low, 1.0, shape).astype(np.float32)


def _times_pow2(x, exponents):
    return np.ldexp(x, np.asarray(exponents, dtype=np.int32)).astype(np.float32)


def _type(a_range, b_range):
    return lambda m, k, n, rng: (exp_rand((m, k), *a_range, rng), exp_rand((k, n), *b_range, rng))


def _rows_cols_60(m, k, n, rng):
    a = _times_pow2(_urand(rng, (m, k)), rng.integers(-60, 60, (m, 1), endpoint=True))
    return a, _times_pow2(_urand(rng, (k, n)), rng.integers(-60, 60, (1, n), endpoint=True))


def _rows_100(m, k, n, rng):
    exponents = np.rint(np.linspace(-100, 100, m))[:, None]
    return _times_pow2(_urand(rng, (m, k)), exponents), _urand(rng, (k, n))


def _drift(m, k, n, rng):
    # 200 binades along each row, 200·64/k in a 64-wide block; exp_rand(-4, -1) keeps each
    # element within 4 binades of its place on the ramp (urand's rare tiny values would not).
    exponents = np.floor(-100 + 200 * np.arange(k) / k)[None, :]
    return _times_pow2(exp_rand((m, k), -4, -1, rng), exponents), _urand(rng, (k, n))


def _outlier(m, k, n, rng):
    a = _urand(rng, (m, k))
    a[np.arange(m), rng.integers(0, k, m)] *= np.float32(2.0 ** 40)
    return a, _urand(rng, (k, n))


# (name, what it is, make(m, k, n, rng) -> (A, B)); the first four are section 6's types.
BLOCK_STUDY_DATA = (
    ("type 1", "exp_rand(-15, 14) x exp_rand(-15, 14)", _type((-15, 14), (-15, 14))),
    ("type 2", "exp_rand(-15, 14) x exp_rand(-100, -35)", _type((-15, 14), (-100, -35))),
    ("type 3", "exp_rand(-35, -15) x exp_rand(-35, -15)", _type((-35, -15), (-35, -15))),
    ("type 4", "exp_rand(-100, -35) x exp_rand(-100, -35)", _type((-100, -35), (-100, -35))),
    ("urand(-1, 1)", "uniform on (-1, 1), both", lambda m, k, n, r: (_urand(r, (m, k)),
                                                                   _urand(r, (k, n)))),
    ("urand(0, 1)", "uniform on (0, 1), both", lambda m, k, n, r: (_urand(r, (m, k), 0.0),
                                                                 _urand(r, (k, n), 0.0))),
    ("rows, cols 2^±60", "urand(-1, 1), row i of A and column j of B times 2^e, e uniform on "
     "[-60, 60]", _rows_cols_60),
    ("rows 2^-100…2^100", "urand(-1, 1), row i of A times 2^e, e evenly over [-100, 100]; "
     "B urand(-1, 1)", _rows_100),
    ("drift along k", "A_ik = exp_rand(-4, -1) x 2^floor(-100 + 200k/K); B urand(-1, 1)",
     _drift),
    ("2^40 outlier a row", "urand(-1, 1), one element a row of A times 2^40; B urand(-1, 1)",
     _outlier),
    ("tiny 2^-25·urand", "2^-25 x urand(-1, 1), both",
     lambda m, k, n, r: (np.float32(2.0 ** -25) * _urand(r, (m, k)),
                         np.float32(2.0 ** -25) * _urand(r, (k, n)))),
)

# (label, mode of gemm, or None for auto_block_gemm with these options)
BLOCK_STUDY_METHODS = (
    ("fp32", "fp32", None), ("tf32tf32", "tf32tf32", None), ("halfhalf", "halfhalf", None),
    ("auto", "auto", None),
    ("blocks 64, column", None, {"block_k": 64, "b_scale": "column"}),
    ("blocks 128, column", None, {"block_k": 128, "b_scale": "column"}),
    ("blocks 64, tile 128", None, {"block_k": 64, "b_scale": "tile", "tile_n": 128}),
    ("blocks 128, tile 128", None, {"block_k": 128, "b_scale": "tile", "tile_n": 128}),
)


def _errors(c, ref, magnitude):
    """(relative Frobenius residual, max_ij |C - C64| / (|A|·|B|)_ij)."""
    with np.errstate(invalid="ignore", over="ignore"):
        err = np.abs(c.astype(np.float64) - ref)
        residual = float(np.linalg.norm(err) / np.linalg.norm(ref))
        ratio = np.divide(err, magnitude, out=np.where(err > 0, np.inf, 0.0), where=magnitude > 0)
    return residual, float(np.max(ratio, initial=0.0))


def _study_case(job):
    (m, k, n), index, seed = job
    name, _, make = BLOCK_STUDY_DATA[index]
    start = time.perf_counter()
    a, b = make(m, k, n, np.random.default_rng([seed, m, k, n, index]))
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    ref, magnitude = a64 @ b64, np.abs(a64) @ np.abs(b64)
    outputs, rows = {}, {}
    for label, mode, options in BLOCK_STUDY_METHODS:
        row = {}
        if mode is not None:
            outputs[label] = gemm(a, b, mode)
            if mode == "auto":
                # Whole rows as one block: its fits masks are auto_choice's, per row and column.
                whole = block_choice(a, b, block_k=max(16, -(-k // 16) * 16))
                choice = auto_choice(a, b)
                row = {"route": choice.mode + ("" if choice.scaled else ", unscaled"),
                       "fallback": choice.fallback, "unfit": whole.unfit_fractions}
        else:
            choice = block_choice(a, b, **options)
            # On fallback auto_block_gemm returns tf32tf32's bits (tests hold it): reuse them.
            outputs[label] = (outputs["tf32tf32"] if choice.fallback
                              else auto_block_gemm(a, b, **options))
            row = {"route": choice.mode + ("" if choice.scaled else ", unscaled"),
                   "fallback": choice.fallback, "unfit": choice.unfit_fractions}
        row["residual"], row["componentwise"] = _errors(outputs[label], ref, magnitude)
        rows[label] = row
    base = rows["fp32"]
    with np.errstate(divide="ignore", invalid="ignore"):
        for row in rows.values():
            for key in ("residual", "componentwise"):
                row[key + "_ratio"] = float(np.float64(row[key]) / base[key])
    return {"shape": [m, k, n], "data": name, "methods": rows,
            "seconds": round(time.perf_counter() - start, 1)}


def block_scaling_study(shapes=BLOCK_STUDY_SHAPES, data=None, seed=BLOCK_STUDY_SEED,
                        workers: int = 2) -> dict:
    """Every method of BLOCK_STUDY_METHODS on every data set (names from BLOCK_STUDY_DATA;
    all by default) at every shape: errors against the float64 product, their ratio to
    the FP32 model's (sequential FMAs), and for the AUTO variants the route and the share
    of segments that did not fit. Cases run in `workers` processes; results are the same
    for any number."""
    names = [entry[0] for entry in BLOCK_STUDY_DATA]
    picked = names if data is None else list(data)
    for name in picked:
        if name not in names:
            raise ValueError(f"unknown data set {name!r}; choose from {names}")
    jobs = [(tuple(shape), names.index(name), seed) for shape in shapes for name in picked]
    if workers > 1:
        from concurrent.futures import ProcessPoolExecutor
        with ProcessPoolExecutor(workers) as pool:
            cases = list(pool.map(_study_case, jobs))
    else:
        cases = [_study_case(job) for job in jobs]
    return {"seed": seed, "shapes": [list(s) for s in shapes],
            "data": {name: what for name, what, _ in BLOCK_STUDY_DATA if name in picked},
            "methods": {label: options or {"mode": mode}
                        for label, mode, options in BLOCK_STUDY_METHODS},
            "cases": cases}


def _cell(row) -> str:
    text = f"{row['residual_ratio']:.3g} / {row['componentwise_ratio']:.3g}"
    if row.get("fallback"):
        mark = "‡" if row["route"] == "tf32tf32" else "†"  # ‡: on the scaled operands
        text += f" {mark}{100 * row['unfit'][0]:.3g}%, {100 * row['unfit'][1]:.3g}%"
    return text


def block_scaling_table(results: dict) -> str:
    """The study as markdown: one table per shape, a row per data set."""
    labels = list(results["methods"])
    lines = []
    for shape in results["shapes"]:
        lines += ["", f"**{shape[0]} × {shape[1]} × {shape[2]}** (m × k × n)", "",
                  "| data | FP32 model: residual / componentwise | "
                  + " | ".join(labels[1:]) + " |",
                  "|---" * (len(labels) + 1) + "|"]
        for case in results["cases"]:
            if case["shape"] != shape:
                continue
            rows = case["methods"]
            fp32 = rows[labels[0]]
            lines.append(f"| {case['data']} | {fp32['residual']:.2e} / "
                         f"{fp32['componentwise']:.2e} | "
                         + " | ".join(_cell(rows[label]) for label in labels[1:]) + " |")
    lines += ["", "Cells: residual / componentwise error, each over the FP32 model's on the same "
              "data (below 1 is better than sequential FP32 FMAs). Residual: ‖C − C64‖_F / "
              "‖C64‖_F; componentwise: max_ij |C − C64|_ij / (|A|·|B|)_ij. † the call fell back "
              "to tf32tf32 on the operands as they are, ‡ on the scaled operands (today's "
              "auto); then the shares of A's row segments and of B's column (or tile) "
              "segments that did not fit FP16's window (auto: whole rows and columns)."]
    return "\n".join(lines[1:]) + "\n"


# --- where tf32tf32's error on wide data comes from (issue 26; docs/numerics.md, section 11)

# (label, gemm of (a, b)): the FP32 model; tf32tf32 and the three-part split with the
# Tensor Core's accumulation as modelled for the hardware (truncating, 2 extra bits), as
# mma_rn (round to nearest), and with exact k-step sums (20 extra bits, then one rounding
# to nearest): what is left there is the split's and the promotion's; and tf32tf32 with
# two-level promotion (a block's 8 k-steps summed apart, then added to the total).
EXACT_SUMS = {"rounding": "rn", "extra_bits": 20}
SPLIT_STUDY_METHODS = (
    ("fp32", lambda a, b: gemm(a, b, "fp32")),
    ("tf32tf32", lambda a, b: gemm(a, b, "tf32tf32")),
    ("tf32tf32, mma_rn", lambda a, b: gemm(a, b, "tf32tf32", rounding="rn")),
    ("tf32tf32, exact sums", lambda a, b: gemm(a, b, "tf32tf32", **EXACT_SUMS)),
    ("tf32tf32, two-level 8", lambda a, b: gemm(a, b, "tf32tf32", promote_block=8)),
    ("three parts", three_part_gemm),
    ("three parts, exact sums", lambda a, b: three_part_gemm(a, b, **EXACT_SUMS)),
)
SPLIT_STUDY_DATA = ("type 1", "type 2", "type 3", "type 4", "urand(-1, 1)", "2^40 outlier a row")


def _split_case(job):
    (m, k, n), name, seed = job
    index = [entry[0] for entry in BLOCK_STUDY_DATA].index(name)
    a, b = BLOCK_STUDY_DATA[index][2](m, k, n, np.random.default_rng([seed, m, k, n, index]))
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    ref, magnitude = a64 @ b64, np.abs(a64) @ np.abs(b64)
    rows = {}
    for label, method in SPLIT_STUDY_METHODS:
        residual, componentwise = _errors(method(a, b), ref, magnitude)
        rows[label] = {"residual": residual, "componentwise": componentwise}
    return {"shape": [m, k, n], "data": name, "methods": rows}


def split_error_study(shape=(256, 1024, 256), data=SPLIT_STUDY_DATA, seed=BLOCK_STUDY_SEED,
                      workers: int = 2) -> dict:
    """Residual and componentwise error of every SPLIT_STUDY_METHODS entry on each data set
    (BLOCK_STUDY_DATA's makers and seeds) at one shape. Cases run in `workers` processes."""
    jobs = [(tuple(shape), name, seed) for name in data]
    if workers > 1:
        from concurrent.futures import ProcessPoolExecutor
        with ProcessPoolExecutor(workers) as pool:
            cases = list(pool.map(_split_case, jobs))
    else:
        cases = [_split_case(job) for job in jobs]
    return {"seed": seed, "shape": list(shape), "methods": [label for label, _ in SPLIT_STUDY_METHODS],
            "cases": cases}


def split_error_table(results: dict) -> str:
    """The study as markdown: a row per data set; each method's residual / componentwise
    error, after the first column's (the FP32 model's) as ratios to tf32tf32's."""
    labels = results["methods"]
    lines = ["| data | " + " | ".join(labels) + " |", "|---" * (len(labels) + 1) + "|"]
    for case in results["cases"]:
        rows = case["methods"]
        base = rows["tf32tf32"]
        cells = [f"{rows[labels[0]]['residual']:.2e} / {rows[labels[0]]['componentwise']:.2e}",
                 f"{base['residual']:.2e} / {base['componentwise']:.2e}"]
        for label in labels[2:]:
            r = rows[label]
            cells.append(f"{r['residual'] / base['residual']:.3g} / "
                         f"{r['componentwise'] / base['componentwise']:.3g}")
        lines.append(f"| {case['data']} | " + " | ".join(cells) + " |")
    shape = " × ".join(map(str, results["shape"]))
    lines += ["", f"{shape} (m × k × n), seed {results['seed']}. The first two columns are "
              "residual / componentwise error; the others are ratios to tf32tf32's (below 1 is "
              "more accurate). Residual: ‖C − C64‖_F / ‖C64‖_F; componentwise: max_ij "
              "|C − C64|_ij / (|A|·|B|)_ij."]
    return "\n".join(lines) + "\n"
