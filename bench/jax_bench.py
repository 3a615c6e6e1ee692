"""ecgemm.jax against XLA's own float32 products, on one GPU:

    python -m bench.jax_bench --out DIR [--mlp-width 4096 --mlp-batch 4096 --mlp-layers 3]

- per-call cost under ``jit`` at 256³ and 1024³: ``ecgemm.jax.matmul`` against
  ``jnp.matmul(precision="highest")``, back to back (bench/timing.py's host clock over
  batches of calls) and one call waited for;
- 8192³: time per call of back-to-back calls (GPU-bound at that size, so GPU time)
  for ecgemm tf32tf32 / halfhalf, XLA F32 (``precision="highest"``),
  ``DotAlgorithmPreset.TF32_TF32_F32_X3`` and ``BF16_BF16_F32_X6``, in one process, with
  residuals against XLA's float64 product of the same operands;
- a float32 MLP (``--mlp-layers`` Dense layers of ``--mlp-width``, batch
  ``--mlp-batch``, ReLU, MSE, SGD), 100 steps under ``jit``: ecgemm.jax against XLA's
  default float32 dot (``jnp.matmul`` with no precision), time per step, the loss
  curves, and each curve's largest relative gap to the float64 one and to XLA's.

Writes DIR/jax.json, DIR/jax.md and DIR/jax.png (needs matplotlib), prints the table.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time

os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")

import jax  # noqa: E402

jax.config.update("jax_enable_x64", True)  # the float64 references only; operands are float32
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402

import ecgemm.jax as ej  # noqa: E402
from bench import figures  # noqa: E402
from bench.timing import time_host  # noqa: E402

MODES = ("tf32tf32", "halfhalf")
PRESETS = ("TF32_TF32_F32_X3", "BF16_BF16_F32_X6")
F64 = jnp.float64


def seeded(shape, seed):
    return jax.device_put(np.random.default_rng(seed).uniform(-1, 1, shape).astype(np.float32))


def methods():
    """name -> a jitted float32 product (a, b) -> c."""
    found = {f"ecgemm {mode}": jax.jit(lambda a, b, mode=mode: ej.matmul(a, b, mode=mode))
             for mode in MODES}
    found["XLA F32 (highest)"] = jax.jit(lambda a, b: jnp.matmul(a, b, precision="highest"))
    for preset in PRESETS:
        algorithm = getattr(jax.lax.DotAlgorithmPreset, preset)
        found[f"XLA {preset}"] = jax.jit(lambda a, b, p=algorithm: jnp.matmul(
            a, b, precision=p, preferred_element_type=jnp.float32))
    return found


def wait(x):
    x.block_until_ready()


def waited_ms(call, repeats=200):
    """Median wall time of one call issued into an idle device and waited for."""
    samples = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        wait(call())
        samples.append((time.perf_counter() - t0) * 1e3)
    return statistics.median(samples)


def residual_fn():
    reference = jax.jit(lambda a, b: jnp.matmul(a.astype(F64), b.astype(F64),
                                                precision="highest"))
    norm = jax.jit(lambda c, ref: jnp.linalg.norm(c.astype(F64) - ref) / jnp.linalg.norm(ref))
    return reference, norm


def run_products(args, found) -> list:
    rows = []
    reference, norm = residual_fn()
    small = [name for name in found if name.startswith("ecgemm") or "highest" in name]
    for n in args.call_sizes + [args.big]:
        a, b = seeded((n, n), 1), seeded((n, n), 2)
        ref = reference(a, b)
        for name, fn in found.items():
            if n != args.big and name not in small:
                continue
            row = {"method": name, "n": n}
            try:
                call = lambda fn=fn, a=a, b=b: fn(a, b)  # noqa: E731
                timing = time_host([call], wait, args.budget, 0.5)
                row.update(ms=timing.median_ms, tflops=2 * n ** 3 / timing.median_ms / 1e9,
                           residual=float(norm(call(), ref)))
                if n != args.big:
                    row["waited_ms"] = waited_ms(call)
            except Exception as exc:  # noqa: BLE001  (a preset this XLA lacks)
                row["error"] = f"{type(exc).__name__}: {exc}"[:300]
            print(json.dumps(row), flush=True)
            rows.append(row)
        del a, b, ref
    return rows


# ---- the MLP ------------------------------------------------------------------------------

def init_mlp(width, layers, seed):
    keys = jax.random.split(jax.random.PRNGKey(seed), layers)
    return [(jax.random.normal(k, (width, width), jnp.float32) * width ** -0.5,
             jnp.zeros((width,), jnp.float32)) for k in keys]


def forward(params, x, mm):
    for i, (w, bias) in enumerate(params):
        x = mm(x, w) + bias
        if i < len(params) - 1:
            x = jax.nn.relu(x)
    return x


def make_step(mm, lr):
    def loss(params, x, y):
        return jnp.mean((forward(params, x, mm) - y) ** 2)

    @jax.jit
    def step(params, x, y):
        value, grads = jax.value_and_grad(loss)(params, x, y)
        return jax.tree.map(lambda p, g: p - lr * g, params, grads), value
    return step


def train(step, params, x, y, steps):
    losses = []
    for _ in range(steps):
        params, value = step(params, x, y)
        losses.append(value)
    return [float(v) for v in losses], params


def run_mlp(args) -> list:
    params = init_mlp(args.mlp_width, args.mlp_layers, 0)
    teacher = init_mlp(args.mlp_width, args.mlp_layers, 1)
    x = seeded((args.mlp_batch, args.mlp_width), 3)
    y = forward(jax.tree.map(lambda t: t.astype(F64), teacher), x.astype(F64), jnp.matmul)
    # float64: the reference curve (XLA's float64 dot, exact to float32's purposes).
    p64 = jax.tree.map(lambda t: t.astype(F64), params)
    exact, _ = train(make_step(lambda a, b: jnp.matmul(a, b, precision="highest"), args.lr),
                     p64, x.astype(F64), y, args.steps)
    y32 = y.astype(jnp.float32)
    contenders = [("XLA default float32 dot", jnp.matmul)]
    contenders += [(f"ecgemm.jax {mode}", lambda a, b, mode=mode: ej.matmul(a, b, mode=mode))
                   for mode in MODES]
    rows, curves = [], {}
    for name, mm in contenders:
        step = make_step(mm, args.lr)
        losses, _ = train(step, params, x, y32, args.steps)
        timing = time_host([lambda step=step: step(params, x, y32)[1]], wait, args.budget, 1.0)
        curves[name] = losses
        rows.append({"method": name, "ms_per_step": timing.median_ms, "losses": losses,
                     "gap_to_fp64": max(abs(v - e) / e for v, e in zip(losses, exact))})
    for row in rows:
        xla = curves["XLA default float32 dot"]
        row["gap_to_xla_default"] = max(abs(a - b) / b for a, b in zip(row["losses"], xla))
        print(json.dumps({k: v for k, v in row.items() if k != "losses"}), flush=True)
    rows.append({"method": "float64 (reference)", "losses": exact})
    return rows


# ---- report -------------------------------------------------------------------------------

def table(products, mlp, args) -> str:
    lines = ["| product | n | ms/call (back to back) | one call waited (ms) | TFLOP/s "
             "| residual vs FP64 |",
             "|---|---:|---:|---:|---:|---:|"]
    for r in products:
        if "error" in r:
            lines.append(f"| {r['method']} | {r['n']} | {r['error']} | | | |")
            continue
        waited = f"{r['waited_ms']:.4f}" if "waited_ms" in r else ""
        lines.append(f"| {r['method']} | {r['n']} | {r['ms']:.4f} | {waited} | "
                     f"{r['tflops']:.1f} | {r['residual']:.2e} |")
    lines += ["", f"MLP: {args.mlp_layers} × Dense({args.mlp_width}), batch {args.mlp_batch}, "
                  f"{args.steps} SGD steps under jit", "",
              "| training | ms/step | × XLA default | largest loss gap to FP64 | to XLA default |",
              "|---|---:|---:|---:|---:|"]
    base = next(r["ms_per_step"] for r in mlp if r["method"] == "XLA default float32 dot")
    for r in mlp:
        if "ms_per_step" in r:
            lines.append(f"| {r['method']} | {r['ms_per_step']:.3f} "
                         f"| {base / r['ms_per_step']:.2f}× | {r['gap_to_fp64']:.2e} "
                         f"| {r['gap_to_xla_default']:.2e} |")
    return "\n".join(lines) + "\n"


def plot(products, mlp, path, big) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(13, 4.5))
    rows = [r for r in products if r["n"] == big and "tflops" in r]
    left.barh([r["method"] for r in rows], [r["tflops"] for r in rows], color="tab:blue")
    for i, r in enumerate(rows):
        left.text(r["tflops"], i, f" {r['residual']:.1e}", va="center", fontsize=8)
    left.set_xlabel(f"TFLOP/s at {big}³ (label: residual vs FP64)")
    for r in mlp:
        right.plot(r["losses"], label=r["method"], lw=1)
    right.set_yscale("log")
    right.set_xlabel("SGD step")
    right.set_ylabel("MSE loss")
    right.legend(fontsize=8)
    fig.tight_layout()
    figures.save(fig, path, dpi=120)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", required=True)
    parser.add_argument("--call-sizes", type=int, nargs="+", default=[256, 1024])
    parser.add_argument("--big", type=int, default=8192)
    parser.add_argument("--budget", type=float, default=2.0, help="seconds of timing per case")
    parser.add_argument("--mlp-width", type=int, default=4096)
    parser.add_argument("--mlp-batch", type=int, default=4096)
    parser.add_argument("--mlp-layers", type=int, default=3)
    parser.add_argument("--steps", type=int, default=100)
    parser.add_argument("--lr", type=float, default=0.05)
    args = parser.parse_args(argv)

    env = {"jax": jax.__version__, "devices": [str(d) for d in jax.devices()],
           "args": vars(args)}
    products = run_products(args, methods())
    mlp = run_mlp(args)
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "jax.json"), "w") as f:
        json.dump({"env": env, "products": products, "mlp": mlp}, f, indent=1)
    text = table(products, mlp, args)
    with open(os.path.join(args.out, "jax.md"), "w") as f:
        f.write(text)
    print(text, flush=True)
    try:
        plot(products, mlp, os.path.join(args.out, "jax.png"), args.big)
    except ImportError:
        print("matplotlib missing: no plot", flush=True)


if __name__ == "__main__":
    main()
