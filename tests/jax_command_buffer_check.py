"""ecgemm.jax under XLA's command buffers (CUDA graphs): the workload of
tests/test_jax_gpu.py::test_command_buffers_replay_the_call_bitwise, run in a process of
its own because XLA reads XLA_FLAGS once.

    python jax_command_buffer_check.py OUT.npz

runs every program four times on the same buffers, then once on new buffers with new
data, and saves every result. XLA (jax 0.11) runs the first execution as plain thunks,
records its command buffers (CUDA graphs) in the second, replays them in the next ones,
and records them again where the buffers changed. Before each
program it writes "program NAME" on stderr, so that, run with ECGEMM_VERBOSE=1, each
ecgemm call's line (marked "captured" where XLA records it into a graph) can be
attributed. The test runs it with command buffers on and off and compares.
"""

import sys

import jax
import jax.numpy as jnp
import numpy as np

import ecgemm
import ecgemm.jax as ej

# Shapes whose plans take scratch in every family the planner has (split planes,
# split-K partials, AUTO's scales) and one that takes none (k = 2).
SHAPES = [(1536, 1024, 1280), (64, 8192, 96), (4096, 2, 3072), (197, 301, 131)]
MODES = ("tf32tf32", "halfhalf", "auto")


def rand(shape, seed):
    return np.random.default_rng(seed).uniform(-1, 1, shape).astype(np.float32)


def programs(mode):
    """(name, function, argument shapes): fusions around the call, its gradient, a scan."""
    def fused(a, b, c):
        return jnp.tanh(ej.matmul(a * 0.5, b, mode=mode)) + c

    def grad(a, b, c):
        return jax.grad(lambda x, y: (ej.matmul(x, y, mode=mode) * c).sum(), argnums=(0, 1))(a, b)

    def scan(a, b, c):
        step = lambda h, _: (jnp.tanh(ej.matmul(h, b, mode=mode)) + c[:, : b.shape[1]], None)
        return jax.lax.scan(step, a[:, : b.shape[0]], None, length=4)[0]

    out = []
    for m, k, n in SHAPES:
        out.append((f"fused-{m}x{k}x{n}", fused, [(m, k), (k, n), (m, n)]))
        out.append((f"grad-{m}x{k}x{n}", grad, [(m, k), (k, n), (m, n)]))
    out.append(("scan", scan, [(256, 384), (384, 384), (256, 384)]))
    return out


def main(path):
    results = {}
    for mode in MODES:
        for name, fn, shapes in programs(mode):
            compiled = jax.jit(fn)
            args = [jnp.asarray(rand(s, seed)) for seed, s in enumerate(shapes)]
            jax.block_until_ready(args)
            print(f"program {mode}/{name}", file=sys.stderr, flush=True)
            fresh = [jnp.asarray(rand(s, 100 + seed)) for seed, s in enumerate(shapes)]
            for run, operands in enumerate((args, args, args, args, fresh)):
                leaves = jax.tree_util.tree_leaves(compiled(*operands))
                for i, leaf in enumerate(leaves):
                    results[f"{mode}/{name}/run{run}/{i}"] = np.asarray(leaf)
        print("program none", file=sys.stderr, flush=True)
        # The call alone against ecgemm.matmul on the same arrays (DLPack, the library's
        # pool): the workspace XLA hands over must not change the plan.
        for m, k, n in SHAPES:
            a, b = jnp.asarray(rand((m, k), 7)), jnp.asarray(rand((k, n), 8))
            results[f"{mode}/alone-{m}x{k}x{n}"] = np.asarray(
                jax.jit(lambda x, y: ej.matmul(x, y, mode=mode))(a, b))
            results[f"{mode}/eager-{m}x{k}x{n}"] = np.asarray(
                ecgemm.matmul(np.asarray(a), np.asarray(b), mode=mode))
    np.savez(path, **results)


if __name__ == "__main__":
    main(sys.argv[1])
