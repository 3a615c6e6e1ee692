"""Each Tensor Core family pinned beside the planner's route and cuBLAS SGEMM, in tf32tf32 and AUTO, on the products of
shortk-2026-11-27 call 8 (seed 26) where AUTO ran below 0.95x tf32tf32 (tf32tf32 over 8 us) or tf32tf32 took
fused_mma's 64-wide tile and ran below 0.95x cuBLAS. The questions: what AUTO's guard costs on each family, and
whether the rows that price fused_mma's 64-wide tile, fused_wgmma and the planes order them as they run. The operands
are bench.random's (same transposes and pads; urand(-1, 1), seeded by the shape). GPU time of back-to-back calls, each
round queued behind a GPU sleep (bench.timing.gpu_ms; call 1 ran without the sleep: README.md); residual against FP64
over cuBLAS's. One JSON line a (product, mode).

    python probe.py OUT.jsonl
"""
import gzip
import json
import os
import pathlib
import sys

import torch

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2]))  # the repository: bench.timing
from bench.timing import gpu_ms  # noqa: E402

import ecgemm  # noqa: E402

torch.backends.cuda.matmul.allow_tf32 = False
SAMPLE = HERE.parent / "shortk-2026-11-27" / "call8" / "random-26" / "results.json.gz"
PINS = {"planner": None, "fused_wgmma": "fused_wgmma", "narrow": "fused_wgmma:narrow", "mma32": "fused_mma:32",
        "mma64": "fused_mma:64", "planes": "planes"}


def selected():
    """(op, m, k, n, pad_a, pad_b) of the sample's products this probe asks about, in the sample's order."""
    for case in json.load(gzip.open(SAMPLE))["gemm"]:
        t, a = case["methods"].get("tf32tf32", {}), case["methods"].get("auto", {})
        if "gpu_ms" not in t:
            continue
        auto_low = "gpu_ms" in a and t["gpu_ms"] / a["gpu_ms"] < 0.95 and t["gpu_ms"] > 0.008
        wide_mma_low = "tile=64x64" in t["route"] and t["x_cublas"] < 0.95
        if auto_low or wide_mma_low:
            yield case["op"], case["m"], case["k"], case["n"], case["pad_a"], case["pad_b"]


def gpu_us(call):
    """Median GPU us a call over 7 rounds of 10 back-to-back calls, each round behind a GPU sleep."""
    return 1e3 * gpu_ms(torch, call, batches=7, calls=10)


def rel(x, ref):
    return float(torch.linalg.norm(x.double() - ref) / torch.linalg.norm(ref))


def operand(rows, cols, pad, trans, seed):
    """A (rows x cols) row-major array with a row stride of cols + pad, or its transpose as a view."""
    g = torch.Generator(device="cuda").manual_seed(seed)
    store = torch.full((rows, cols + pad), float("nan"), device="cuda")
    view = store[:, :cols]
    view.uniform_(-1.0, 1.0, generator=g)
    return view.t() if trans else view


def main(out):
    with open(out, "w") as f:
        for op, m, k, n, pad_a, pad_b in selected():
            ta, tb = op[0] == "T", op[1] == "T"
            a = operand(*((k, m) if ta else (m, k)), pad_a, ta, m * 7 + k)
            b = operand(*((n, k) if tb else (k, n)), pad_b, tb, n * 11 + k)
            ref = a.double() @ b.double()
            c = torch.empty(m, n, device="cuda")
            cublas = gpu_us(lambda: torch.matmul(a, b, out=c))
            res_cublas = rel(c, ref)
            for mode in ("tf32tf32", "auto"):
                row = {"op": op, "m": m, "k": k, "n": n, "pad_a": pad_a, "pad_b": pad_b, "mode": mode,
                       "cublas_us": cublas, "cublas_residual": res_cublas}
                for name, pin in PINS.items():
                    if pin:
                        os.environ["ECGEMM_FAMILY"] = pin
                    else:
                        os.environ.pop("ECGEMM_FAMILY", None)
                    c.fill_(float("nan"))
                    us = gpu_us(lambda: ecgemm.matmul(a, b, mode=mode, out=c))
                    row[name] = {"route": ecgemm.explain(a, b, mode=mode), "us": us, "x_cublas": cublas / us,
                                 "residual_ratio": rel(c, ref) / res_cublas}
                os.environ.pop("ECGEMM_FAMILY", None)
                print(f"{op} {m} x {k} x {n} {mode}: cuBLAS {cublas:.1f} us; " + "; ".join(
                    f"{name} {row[name]['us']:.1f}" for name in PINS), flush=True)
                f.write(json.dumps(row) + "\n")
            del a, b, c, ref
            torch.cuda.empty_cache()


if __name__ == "__main__":
    main(sys.argv[1])
