"""ecgemm.jax on a GPU: accuracy against float64 and XLA's FP32 product, jit, vmap (one
batched call), grad against float64 gradients, lax.scan, errors from the handler, XLA's
command buffers, and sharding on two GPUs (skipped, saying so, with fewer).

Accepted error (Frobenius norm, against the float64 product of the same float32
inputs): max(1.25 x XLA's ``precision="highest"`` FP32 product's, MAGMA's
c·u·sqrt(k+2)·|A|·|B|, c = 8), the rule of the numerics property tests.
"""

import re

import numpy as np
import pytest

jax = pytest.importorskip("jax")
import jax.numpy as jnp  # noqa: E402

from _numerics_hypothesis import accepted_error  # noqa: E402

pytestmark = pytest.mark.gpu

ACCURATE = ("tf32tf32", "halfhalf", "fp32", "auto")
ONE_PASS_FLOOR = 1e-5  # relative error above which tf32/fp16 show that the mode was used
M, K, N, BATCH = 197, 301, 131, 3  # ragged on purpose


def gpus():
    try:
        return jax.devices("gpu")
    except RuntimeError:
        return []


@pytest.fixture(scope="module", autouse=True)
def ej():
    if not gpus():
        pytest.skip("JAX sees no GPU (install jax[cuda13] or jax[cuda12])")
    import ecgemm.jax as ej

    return ej


def rand(*shape, seed=0):
    return np.random.default_rng(seed).uniform(-1, 1, shape).astype(np.float32)


def on_gpu(x, device=None):
    return jax.device_put(x, device or gpus()[0])


def error(x, reference) -> float:
    return float(np.linalg.norm((np.asarray(x, np.float64) - reference).ravel()))


def xla_fp32(a, b):
    return jnp.matmul(a, b, precision="highest")


def assert_fp32_accurate(ours, a, b):
    """`ours` is a float32 result of a @ b (matrices or stacks), a and b NumPy float32."""
    reference = np.matmul(a.astype(np.float64), b.astype(np.float64))
    xla = error(xla_fp32(on_gpu(a), on_gpu(b)), reference)
    a2 = a.reshape(-1, a.shape[-1])
    b2 = np.swapaxes(b, -1, -2).reshape(-1, b.shape[-2]).T
    bound = accepted_error(xla, a2, b2, None, 1.0, 0.0)
    assert error(ours, reference) <= bound, (error(ours, reference), xla)


def custom_calls(fn, *args):
    """The ecgemm custom calls in fn's compiled (optimised) program."""
    text = jax.jit(fn).lower(*args).compile().as_text()
    return re.findall(r'custom_call_target="ecgemm_matmul"', text)


# --- accuracy ------------------------------------------------------------------------

@pytest.mark.parametrize("mode", ACCURATE)
def test_matmul_meets_fp32_accuracy_in_every_accurate_mode(ej, mode):
    a, b = rand(M, K, seed=1), rand(K, N, seed=2)
    c = ej.matmul(on_gpu(a), on_gpu(b), mode=mode)
    assert c.shape == (M, N) and c.dtype == jnp.float32
    assert list(c.devices()) == [gpus()[0]]
    assert np.isfinite(np.asarray(c)).all()
    assert_fp32_accurate(c, a, b)


@pytest.mark.parametrize("mode", ["tf32", "fp16"])
def test_one_pass_modes_reach_the_kernel(ej, mode):
    a, b = rand(M, K, seed=1), rand(K, N, seed=2)
    reference = a.astype(np.float64) @ b
    relative = error(ej.matmul(on_gpu(a), on_gpu(b), mode=mode), reference)
    assert ONE_PASS_FLOOR <= relative / np.linalg.norm(reference) <= 2e-3


@pytest.mark.parametrize("shape_a, shape_b", [
    ((M, K), (K, N)), ((K,), (K, N)), ((M, K), (K,)), ((K,), (K,)),
    ((BATCH, M, K), (K, N)), ((M, K), (BATCH, K, N)), ((BATCH, M, K), (BATCH, K, N)),
    ((2, 1, M, K), (1, BATCH, K, N)), ((1, K), (K, 1)), ((M, 1), (1, N)),
])
def test_matmul_follows_jnp_matmul_on_every_shape(ej, shape_a, shape_b):
    a, b = rand(*shape_a, seed=3), rand(*shape_b, seed=4)
    c = ej.matmul(on_gpu(a), on_gpu(b))
    expected = xla_fp32(on_gpu(a), on_gpu(b))
    assert c.shape == expected.shape
    if a.ndim > 1 and b.ndim > 1:
        assert_fp32_accurate(c, a, b)
    np.testing.assert_allclose(c, expected, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("shape_l, shape_r, numbers", [
    ((M, K), (N, K), (((1,), (1,)), ((), ()))),            # x @ W.T: W read transposed
    ((K, M), (K, N), (((0,), (0,)), ((), ()))),            # x.T @ y
    ((BATCH, K, M), (BATCH, N, K), (((1,), (2,)), ((0,), (0,)))),
    ((2, 5, K), (K, N), (((2,), (0,)), ((), ()))),         # flax Dense on (batch, seq, features)
])
def test_dot_general_reads_transposed_operands(ej, shape_l, shape_r, numbers):
    lhs, rhs = rand(*shape_l, seed=5), rand(*shape_r, seed=6)
    ours = ej.dot_general(on_gpu(lhs), on_gpu(rhs), numbers)
    expected = jax.lax.dot_general(on_gpu(lhs), on_gpu(rhs), numbers, precision="highest")
    np.testing.assert_allclose(ours, expected, rtol=1e-4, atol=1e-4)


def test_empty_products_and_k_zero(ej):
    assert ej.matmul(on_gpu(rand(0, K)), on_gpu(rand(K, N))).shape == (0, N)
    zeros = ej.matmul(on_gpu(rand(M, 0)), on_gpu(rand(0, N)))
    assert zeros.shape == (M, N) and not np.asarray(zeros).any()  # k = 0: C = 0, A and B unread


# --- transformations -------------------------------------------------------------------

def test_jit_gives_the_eager_result(ej):
    a, b = on_gpu(rand(M, K, seed=7)), on_gpu(rand(K, N, seed=8))
    f = jax.jit(lambda x, y: ej.matmul(x, y, mode="halfhalf") * 2.0)
    np.testing.assert_array_equal(f(a, b), ej.matmul(a, b, mode="halfhalf") * 2.0)


@pytest.mark.parametrize("in_axes", [(0, None), (None, 0), (0, 0)])
def test_vmap_is_one_batched_call_and_agrees_per_item(ej, in_axes):
    a = rand(*((BATCH, M, K) if in_axes[0] == 0 else (M, K)), seed=9)
    b = rand(*((BATCH, K, N) if in_axes[1] == 0 else (K, N)), seed=10)
    f = jax.vmap(ej.matmul, in_axes=in_axes)
    assert len(custom_calls(f, on_gpu(a), on_gpu(b))) == 1
    c = f(on_gpu(a), on_gpu(b))
    for z in range(BATCH):
        item = ej.matmul(on_gpu(a[z] if in_axes[0] == 0 else a),
                         on_gpu(b[z] if in_axes[1] == 0 else b))
        # A batch and a single product may take different kernel families (the planner's
        # choice): FP32-class agreement, not bit identity.
        item = np.asarray(item, np.float64)
        assert np.linalg.norm(np.asarray(c[z], np.float64) - item) <= 1e-6 * np.linalg.norm(item)
    assert_fp32_accurate(c, a, b)


@pytest.mark.parametrize("mode", ["tf32tf32", "halfhalf"])
def test_grad_matches_float64_gradients(ej, mode):
    a, b = rand(M, K, seed=11), rand(K, N, seed=12)
    w = rand(M, N, seed=13)
    grad_a, grad_b = jax.jit(jax.grad(lambda x, y: (ej.matmul(x, y, mode=mode) * w).sum(),
                                      argnums=(0, 1)))(on_gpu(a), on_gpu(b))
    # loss = sum(w ∘ (A·B)): dA = W·Bᵀ, dB = Aᵀ·W, both products ecgemm computed.
    a64, b64, w64 = (x.astype(np.float64) for x in (a, b, w))
    assert_fp32_accurate(grad_a, w, b.T.copy())
    assert_fp32_accurate(grad_b, a.T.copy(), w)
    np.testing.assert_allclose(grad_a, w64 @ b64.T, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(grad_b, a64.T @ w64, rtol=1e-4, atol=1e-4)


def test_grad_of_a_stack_against_a_shared_matrix_sums_over_the_stack(ej):
    a, b = rand(M, K, seed=14), rand(BATCH, K, N, seed=15)
    grad_a = jax.grad(lambda x: ej.matmul(x, on_gpu(b)).sum())(on_gpu(a))
    expected = np.ones((BATCH, M, N)) @ np.swapaxes(b.astype(np.float64), -1, -2)
    np.testing.assert_allclose(grad_a, expected.sum(0), rtol=1e-4, atol=1e-3)


def test_scan_of_products(ej):
    w, h0 = rand(N, N, seed=16) / np.sqrt(N), rand(BATCH, N, seed=17)

    def run(mm):
        return jax.jit(lambda h: jax.lax.scan(lambda h, _: (jnp.tanh(mm(h, w)), None),
                                              h, None, length=8)[0])(on_gpu(h0))

    h64 = h0.astype(np.float64)
    for _ in range(8):
        h64 = np.tanh(h64 @ w)
    floor = 1e-6 * np.sqrt(h64.size)  # float32 rounding of the states themselves
    assert error(run(ej.matmul), h64) <= 2 * max(error(run(xla_fp32), h64), floor)


# --- errors ---------------------------------------------------------------------------------

def test_a_failing_ecgemm_call_is_an_xla_error_with_ecgemm_s_message(ej):
    """A mode number ecgemm does not know (ecgemm.jax never sends one): ecgemm_set_mode's
    status reaches Python as an XLA error, and the process goes on."""
    call = jax.ffi.ffi_call("ecgemm_matmul", (jax.ShapeDtypeStruct((M, N), jnp.float32),
                                              jax.ShapeDtypeStruct((0,), jnp.uint8)))
    a, b = on_gpu(rand(M, K)), on_gpu(rand(K, N))
    with pytest.raises(jax.errors.JaxRuntimeError,
                       match="ecgemm: ecgemm_set_mode returned ECGEMM_STATUS_INVALID_VALUE"):
        jax.block_until_ready(call(a, b, mode=np.int32(99), transpose_a=False,
                                   transpose_b=False)[0])
    np.testing.assert_allclose(ej.matmul(a, b), xla_fp32(a, b), rtol=1e-4, atol=1e-4)


# --- command buffers (CUDA graphs) -----------------------------------------------------------

COMMAND_BUFFERS_ON = "--xla_gpu_enable_command_buffer=FUSION,CUSTOM_CALL --xla_gpu_graph_min_graph_size=1"
COMMAND_BUFFERS_OFF = "--xla_gpu_enable_command_buffer="


def _command_buffer_run(tmp_path, flags):
    """tests/jax_command_buffer_check.py under `flags`, with ECGEMM_VERBOSE=1: its results,
    and per program the handler's calls (ECGEMM_VERBOSE's lines) and how many were captured."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    out = tmp_path / ("on.npz" if "CUSTOM_CALL" in flags else "off.npz")
    env = dict(os.environ, XLA_FLAGS=flags, ECGEMM_VERBOSE="1")
    here = Path(__file__).resolve().parent
    run = subprocess.run([sys.executable, str(here / "jax_command_buffer_check.py"), str(out)],
                         capture_output=True, text=True, timeout=900, env=env, cwd=here)
    assert run.returncode == 0, run.stderr[-4000:]
    calls, program = {}, None
    for line in run.stderr.splitlines():
        if line.startswith("program "):
            program = line.split()[1]
        elif line.startswith("ecgemm: ") and program not in (None, "none"):
            total, captured = calls.get(program, (0, 0))
            calls[program] = (total + 1, captured + (" captured " in line))
    data = np.load(out)
    return {k: data[k] for k in data.files}, calls


def test_command_buffers_replay_the_call_bitwise(tmp_path):
    """With CUSTOM_CALL command buffers XLA records the handler into its CUDA graphs (it
    declares kCmdBufferCompatible) and replays them without calling it; every run of
    each program (plain, recording, replays, on new buffers) gives, bit for bit, what
    the same programs give with command buffers off. The shapes take scratch
    in every family, from XLA's buffer: the call alone also equals ecgemm.matmul's (the
    library's pool)."""
    on, calls_on = _command_buffer_run(tmp_path, COMMAND_BUFFERS_ON)
    off, calls_off = _command_buffer_run(tmp_path, COMMAND_BUFFERS_OFF)
    assert calls_off and not any(captured for _, captured in calls_off.values()), calls_off
    # Every program's calls were recorded; replays skipped the handler. Which runs
    # replay depends on XLA's allocator (new temporary addresses are recorded again),
    # so only the sum is sure to be smaller.
    assert calls_on.keys() == calls_off.keys(), (calls_on, calls_off)
    assert all(captured > 0 for _, captured in calls_on.values()), calls_on
    assert sum(t for t, _ in calls_on.values()) < sum(t for t, _ in calls_off.values())
    assert on.keys() == off.keys()
    for key in on:
        assert np.all(np.isfinite(on[key])), key
        np.testing.assert_array_equal(on[key], off[key], err_msg=key)
        for run in ("/run1/", "/run2/", "/run3/"):  # the same buffers: the first run's result
            if run in key:
                np.testing.assert_array_equal(on[key], on[key.replace(run, "/run0/")],
                                              err_msg=key)
        if "/eager-" in key:
            np.testing.assert_array_equal(on[key.replace("/eager-", "/alone-")], on[key],
                                          err_msg=key)


# --- two GPUs -------------------------------------------------------------------------------

@pytest.fixture
def mesh():
    if len(gpus()) < 2:
        pytest.skip(f"needs 2 GPUs, JAX sees {len(gpus())}")
    from jax.sharding import AxisType

    return jax.make_mesh((2,), ("x",), axis_types=(AxisType.Auto,), devices=gpus()[:2])


@pytest.mark.parametrize("spec_a, spec_b", [
    (("x", None), (None, None)),   # rows of A
    ((None, None), (None, "x")),   # columns of B
    ((None, "x"), ("x", None)),    # the contraction: an all-reduce over NCCL
])
def test_sharded_jit_on_two_gpus(ej, mesh, spec_a, spec_b):
    from jax.sharding import NamedSharding
    from jax.sharding import PartitionSpec as P

    a, b = rand(256, 192, seed=18), rand(192, 160, seed=19)
    A = jax.device_put(a, NamedSharding(mesh, P(*spec_a)))
    B = jax.device_put(b, NamedSharding(mesh, P(*spec_b)))
    c, expected = jax.jit(ej.matmul)(A, B), jax.jit(xla_fp32)(A, B)
    assert c.sharding.is_equivalent_to(expected.sharding, 2), (c.sharding, expected.sharding)
    assert_fp32_accurate(c, a, b)
    grads = jax.jit(jax.grad(lambda x, y: ej.matmul(x, y).sum(), argnums=(0, 1)))(A, B)
    np.testing.assert_allclose(grads[0], np.ones((256, 160)) @ b.T.astype(np.float64),
                               rtol=1e-4, atol=1e-3)


def test_shard_map_on_two_gpus(ej, mesh):
    from jax.sharding import PartitionSpec as P

    a, b = rand(256, 192, seed=20), rand(192, 160, seed=21)
    f = jax.jit(jax.shard_map(lambda x, y: jax.lax.psum(ej.matmul(x, y), "x"), mesh=mesh,
                              in_specs=(P(None, "x"), P("x", None)), out_specs=P()))
    assert_fp32_accurate(f(a, b), a, b)
