"""ecgemm.jax on every visible GPU: C = A @ B with A's rows sharded across the GPUs and B
replicated, under jax.jit, against one GPU's product of one shard (its TFLOP/s times the GPU
count is perfect scaling) and against XLA's FP32 product (`precision="highest"`) sharded alike.

    python -m bench.jax_sharded --out DIR [--sizes 8192,16384] [--modes tf32tf32,halfhalf]

Time per call: N back-to-back calls of the jitted function, then one wait (median of rounds).
Writes DIR/sharded.json and DIR/sharded.md.
"""
import argparse
import functools
import json
import pathlib
import statistics
import time


def per_call_ms(f, *args, calls=10, rounds=5):
    f(*args).block_until_ready()  # compile and warm
    samples = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        for _ in range(calls):
            out = f(*args)
        out.block_until_ready()
        samples.append((time.perf_counter() - t0) * 1e3 / calls)
    return statistics.median(samples)


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m bench.jax_sharded", description=__doc__.split("\n\n")[0])
    p.add_argument("--out", type=pathlib.Path, required=True)
    p.add_argument("--sizes", default="8192,16384")
    p.add_argument("--modes", default="tf32tf32,halfhalf")
    args = p.parse_args(argv)
    import jax
    import jax.numpy as jnp
    import numpy as np
    from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

    import ecgemm.jax as ej

    devices = jax.devices()
    count = len(devices)
    mesh = Mesh(np.array(devices), ("x",))
    rows, replicated = NamedSharding(mesh, P("x", None)), NamedSharding(mesh, P())
    methods = {m: functools.partial(ej.matmul, mode=m) for m in args.modes.split(",")}
    methods["xla_fp32"] = functools.partial(jnp.matmul, precision="highest")
    results = []
    for n in (int(s) for s in args.sizes.split(",")):
        key = jax.random.PRNGKey(n)
        a = jax.random.uniform(key, (n, n), jnp.float32, -1, 1)
        b = jax.random.uniform(jax.random.fold_in(key, 1), (n, n), jnp.float32, -1, 1)
        A, B = jax.device_put(a, rows), jax.device_put(b, replicated)
        shard = jax.device_put(a[: n // count], devices[0])
        b0 = jax.device_put(b, devices[0])
        flops = 2.0 * n ** 3
        for name, mm in methods.items():
            f = jax.jit(mm)
            sharded_ms = per_call_ms(f, A, B)
            one_ms = per_call_ms(f, shard, b0)
            one_tflops = flops / count / one_ms / 1e9
            row = {"n": n, "method": name, "gpus": count, "sharded_ms": sharded_ms,
                   "sharded_tflops": flops / sharded_ms / 1e9, "one_gpu_shard_ms": one_ms,
                   "one_gpu_tflops": one_tflops,
                   "scaling": (flops / sharded_ms / 1e9) / (count * one_tflops)}
            results.append(row)
            print(json.dumps(row), flush=True)
    args.out.mkdir(parents=True, exist_ok=True)
    env = {"jax": jax.__version__, "devices": [str(d) for d in devices]}
    (args.out / "sharded.json").write_text(json.dumps({"env": env, "results": results}, indent=1))
    lines = [f"# ecgemm.jax sharded over {count} GPUs ({env['devices'][0]} …), jax {jax.__version__}", "",
             "A's rows sharded, B replicated, under jax.jit; 'one GPU' is one shard's product on one GPU.", "",
             "| n | method | sharded TFLOP/s | one GPU TFLOP/s | × (GPUs × one GPU) |", "|---:|---|---:|---:|---:|"]
    lines += [f"| {r['n']} | {r['method']} | {r['sharded_tflops']:.1f} | {r['one_gpu_tflops']:.1f} | "
              f"{r['scaling']:.2f} |" for r in results]
    (args.out / "sharded.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
