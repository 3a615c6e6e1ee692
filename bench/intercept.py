"""Unmodified PyTorch float32 code with and without the cuBLAS interception library
(issue 13). One process per configuration, identical but for ``LD_PRELOAD`` and
``ECGEMM_CUBLAS_MODE``:

- ``torch.mm`` at n x n x n (8192 by default), TF32 off: GPU time of back-to-back
  calls between CUDA events, and the relative Frobenius residual against the float64
  product of the same inputs;
- a small MLP (``bench.torch_bench.mlp``: Linear(width, width) layers with ReLU, fitting
  a random teacher, MSE, SGD) trained for a few hundred steps from the same seed: the
  loss curve and the wall time of the loop. The cuBLAS run also trains a float64 copy,
  the yardstick for "agrees to FP32 noise".

    python -m bench.intercept --out DIR

Writes DIR/intercept.json, DIR/intercept.md and DIR/loss_curves.png, and prints the
table. Every run sets DISABLE_ADDMM_CUDA_LT=1 (Linear's addmm then calls cuBLAS, not
cublasLt, which the library does not intercept) and ECGEMM_CUBLAS_VERBOSE=1; the
verbose lines are counted as proof of interception.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

from bench import figures

CONFIGS = (("cuBLAS SGEMM", None), ("ecgemm tf32tf32", "tf32tf32"),
           ("ecgemm halfhalf", "halfhalf"))
ROUTE = re.compile(r"^ecgemm_cublas: (\w+) .* route=(\w+)")


# ---- one configuration, in its own process ------------------------------------------

def run_worker(args) -> dict:
    import torch

    from bench.methods import set_tf32
    from bench.torch_bench import mlp, seeded, train

    set_tf32(torch, False)
    out = {"gpu": torch.cuda.get_device_name(0), "torch": torch.__version__}
    n = args.n
    a, b = seeded(n, n, seed=1), seeded(n, n, seed=2)
    c = torch.empty(n, n, device="cuda")
    print("=== mm", file=sys.stderr, flush=True)
    for _ in range(3):
        torch.mm(a, b, out=c)
    torch.cuda.synchronize()
    start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(args.repeats):
        torch.mm(a, b, out=c)
    stop.record()
    stop.synchronize()
    ms = start.elapsed_time(stop) / args.repeats
    exact = a.double() @ b.double()  # float64: cuBLAS DGEMM, never intercepted
    out["mm"] = {"n": n, "ms": ms, "tflops": 2 * n ** 3 / ms / 1e9,
                 "residual": float(torch.linalg.norm(c.double() - exact) / torch.linalg.norm(exact))}
    del a, b, c, exact
    torch.cuda.empty_cache()

    print("=== mlp", file=sys.stderr, flush=True)
    torch.manual_seed(0)
    model = mlp(args.width, args.layers).cuda()
    torch.manual_seed(1)
    teacher = mlp(args.width, args.layers).cuda().double()
    x = seeded(args.batch, args.width, seed=1)
    with torch.no_grad():
        target = teacher(x.double()).float()
    del teacher
    fp64_model = None
    if args.fp64:
        import copy
        fp64_model = copy.deepcopy(model).double()
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    losses, _ = train(model, x, target, args.steps, args.lr)  # float(loss) syncs every step
    torch.cuda.synchronize()
    out["mlp"] = {"losses": losses, "wall_s": time.perf_counter() - t0}
    print("=== end", file=sys.stderr, flush=True)
    if fp64_model is not None:
        out["mlp"]["fp64_losses"], _ = train(fp64_model, x.double(), target.double(), args.steps,
                                             args.lr)
    return out


# ---- the parent: one process per configuration, then the report -----------------------

def count_routes(stderr: str) -> dict:
    """Per section (mm, mlp): how many calls each route took, per entry point."""
    counts: dict = {}
    section = None
    for line in stderr.splitlines():
        if line.startswith("=== "):
            section = line[4:].strip()
            counts.setdefault(section, collections.Counter())
        elif section and (m := ROUTE.match(line)):
            counts[section][f"{m.group(1)} -> {m.group(2)}"] += 1
    return {k: dict(v) for k, v in counts.items() if v}


def run_config(args, mode, preload) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("ECGEMM_CUBLAS_")}
    env.update(DISABLE_ADDMM_CUDA_LT="1", ECGEMM_CUBLAS_VERBOSE="1", PYTHONUNBUFFERED="1")
    env.pop("LD_PRELOAD", None)
    if mode is not None:
        env.update(LD_PRELOAD=preload, ECGEMM_CUBLAS_MODE=mode)
    cmd = [sys.executable, "-m", "bench.intercept", "--worker", "--n", str(args.n),
           "--repeats", str(args.repeats), "--width", str(args.width), "--layers",
           str(args.layers), "--batch", str(args.batch), "--steps", str(args.steps),
           "--lr", str(args.lr)] + (["--fp64"] if mode is None else [])
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env,
                          cwd=Path(__file__).resolve().parents[1])
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed:\n{proc.stderr[-6000:]}")
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    result["routes"] = count_routes(proc.stderr)
    return result


def rel_gap(xs, ys) -> float:
    return max(abs(x - y) / abs(y) for x, y in zip(xs, ys))


def report(args, rows) -> str:
    base = rows[0]
    fp64 = base["mlp"]["fp64_losses"]
    lines = [f"# cuBLAS interception on {base['gpu']} (torch {base['torch']})", "",
             f"torch.mm {args.n}^3 float32, TF32 off: mean of {args.repeats} back-to-back calls "
             "(CUDA events); residual = |C - C_fp64|_F / |C_fp64|_F.", "",
             "| run | ms / call | TFLOP/s | x without preload | residual |",
             "|---|---:|---:|---:|---:|"]
    for r in rows:
        mm = r["mm"]
        lines.append(f"| {r['label']} | {mm['ms']:.2f} | {mm['tflops']:.1f} | "
                     f"{base['mm']['ms'] / mm['ms']:.2f}x | {mm['residual']:.3e} |")
    lines += ["", f"MLP: {args.layers} x Linear({args.width}, {args.width}) with ReLU, batch "
              f"{args.batch}, {args.steps} SGD steps (lr {args.lr}), MSE to a random teacher; wall "
              "time of the training loop. Loss gap: max over steps of |L - L_ref| / L_ref.", "",
              "| run | wall s | final loss | max gap to cuBLAS run | max gap to float64 run |",
              "|---|---:|---:|---:|---:|"]
    for r in rows:
        losses = r["mlp"]["losses"]
        lines.append(f"| {r['label']} | {r['mlp']['wall_s']:.2f} | {losses[-1]:.9g} | "
                     f"{rel_gap(losses, base['mlp']['losses']):.2e} | {rel_gap(losses, fp64):.2e} |")
    lines.append(f"| float64 (same model, same steps) | | {fp64[-1]:.9g} | | |")
    lines += ["", "Calls seen by the library (entry point -> route), per run:", ""]
    for r in rows:
        lines.append(f"- {r['label']}: {json.dumps(r['routes'])}")
    return "\n".join(lines) + "\n"


def plot(args, rows, path: Path) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fp64 = rows[0]["mlp"]["fp64_losses"]
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(8, 7), sharex=True)
    steps = range(1, len(fp64) + 1)
    for r in rows:
        losses = r["mlp"]["losses"]
        label = f"{r['label']} ({r['mlp']['wall_s']:.2f} s)"
        top.plot(steps, losses, label=label)
        bottom.semilogy(steps, [abs(x - y) / y + 1e-12 for x, y in zip(losses, fp64)], label=label)
    top.plot(steps, fp64, "k:", label="float64")
    top.set_ylabel("training loss (MSE)")
    top.set_yscale("log")
    top.legend()
    top.set_title(f"{rows[0]['gpu']}: float32 MLP, TF32 off, with and without LD_PRELOAD")
    bottom.set_ylabel("|L - L_fp64| / L_fp64")
    bottom.set_xlabel("SGD step")
    fig.tight_layout()
    figures.save(fig, path, dpi=120)


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", default=None, help="output folder (default bench/results/intercept-<date>)")
    p.add_argument("--n", type=int, default=8192)
    p.add_argument("--repeats", type=int, default=20)
    p.add_argument("--width", type=int, default=4096)
    p.add_argument("--layers", type=int, default=3)
    p.add_argument("--batch", type=int, default=2048)
    p.add_argument("--steps", type=int, default=300)
    p.add_argument("--lr", type=float, default=20.0,
                   help="large because MSE averages over batch x width outputs")
    p.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--fp64", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.worker:
        print(json.dumps(run_worker(args)))
        return
    import ecgemm

    preload = ecgemm._paths.preload_library()
    out = Path(args.out or f"bench/results/intercept-{time.strftime('%Y-%m-%d')}")
    out.mkdir(parents=True, exist_ok=True)
    rows = []
    for label, mode in CONFIGS:
        print(f"bench.intercept: {label} ...", file=sys.stderr, flush=True)
        rows.append({"label": label, "mode": mode, **run_config(args, mode, preload)})
    table = report(args, rows)
    (out / "intercept.json").write_text(json.dumps({"args": vars(args), "rows": rows}, indent=1))
    (out / "intercept.md").write_text(table)
    plot(args, rows, out / "loss_curves.png")
    print(table)


if __name__ == "__main__":
    main()
