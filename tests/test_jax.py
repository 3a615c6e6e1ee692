"""ecgemm.jax without a GPU: the build's handler detection (with and without jaxlib),
the import errors, trace-time errors, result shapes, the custom calls that jit, vmap,
grad and scan emit, error propagation through XLA, and sharding on CPU devices.

Tests of the build's skip path and of the import errors run without JAX; the rest
need JAX and ecgemm.jax's handler and skip, saying why, where either is missing.
No test here runs ecgemm: XLA's CPU backend runs the handler's host half, which
checks its operands and refuses. Numerical checks of the layers around the custom
call (reshapes, transposes, vmap and vjp rules, partitioning) swap the call for a
jnp reference of the same contract (``reference_target``), so that only the call
itself is left to tests/test_jax_gpu.py.
"""

import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import List, NamedTuple, Tuple

import numpy as np
import pytest

REPO = Path(__file__).resolve().parents[1]
TESTS = Path(__file__).resolve().parent


def _run(code: str, env=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=300, env=env, cwd=TESTS)


# --- without JAX: the package, and the build's detection of XLA's FFI headers --------

def test_import_ecgemm_does_not_import_jax():
    run = _run("import sys, ecgemm; assert 'jax' not in sys.modules, 'ecgemm imported jax'")
    assert run.returncode == 0, run.stderr


def test_without_jax_the_subpackage_says_how_to_get_it():
    run = _run("import sys; sys.modules['jax'] = None\n"
               "try:\n    import ecgemm.jax\nexcept ImportError as e:\n    print(e)\n")
    assert run.returncode == 0, run.stderr
    assert "ecgemm.jax needs JAX" in run.stdout and "rebuild ecgemm" in run.stdout


def _find_xla_ffi(tmp_path: Path, jax_source, **defines) -> Tuple[str, str]:
    """(include, why) from python/xla_ffi.cmake, run by cmake -P with a Python whose
    `jax` package is `jax_source` (a dict of file -> text; None: as installed)."""
    cmake = shutil.which("cmake")
    if cmake is None:
        pytest.skip("cmake is not on PATH (the test extra installs it)")
    env = dict(os.environ)
    if jax_source is not None:
        fake = tmp_path / "site"
        for name, text in jax_source.items():
            (fake / "jax" / name).parent.mkdir(parents=True, exist_ok=True)
            (fake / "jax" / name).write_text(text)
        env["PYTHONPATH"] = str(fake)
    script = tmp_path / "probe.cmake"
    script.write_text(textwrap.dedent(f"""\
        include({REPO / "python" / "xla_ffi.cmake"})
        ecgemm_find_xla_ffi("{sys.executable}" include why)
        message(STATUS "include=[${{include}}] why=[${{why}}]")
        """))
    args = [cmake] + [f"-D{k}={v}" for k, v in defines.items()] + ["-P", str(script)]
    run = subprocess.run(args, capture_output=True, text=True, timeout=120, env=env)
    assert run.returncode == 0, run.stderr
    found = re.search(r"include=\[(.*)\] why=\[(.*)\]", run.stdout, re.S)
    assert found, run.stdout
    return found.group(1), found.group(2)


def _ffi_headers(root: Path) -> Path:
    (root / "xla" / "ffi" / "api").mkdir(parents=True)
    (root / "xla" / "ffi" / "api" / "ffi.h").write_text("// XLA FFI\n")
    return root


def test_build_skips_the_handler_when_jax_is_not_importable(tmp_path):
    include, why = _find_xla_ffi(
        tmp_path, {"__init__.py": "raise ModuleNotFoundError(\"No module named 'jax'\")\n"})
    assert include == ""
    assert why == f"jax is not importable by {sys.executable} " \
                  f"(ModuleNotFoundError: No module named 'jax')"


def test_build_skips_the_handler_when_jaxlib_has_no_ffi_headers(tmp_path):
    empty = tmp_path / "include"
    empty.mkdir()
    include, why = _find_xla_ffi(tmp_path, {
        "__init__.py": "", "ffi.py": f"def include_dir():\n    return {str(empty)!r}\n"})
    assert include == "" and why == f"jax.ffi.include_dir() = {empty} holds no xla/ffi/api/ffi.h"


def test_build_uses_the_headers_jax_names(tmp_path):
    headers = _ffi_headers(tmp_path / "include")
    include, why = _find_xla_ffi(tmp_path, {
        "__init__.py": "", "ffi.py": f"def include_dir():\n    return {str(headers)!r}\n"})
    assert (include, why) == (str(headers), "")


def test_build_takes_the_headers_from_the_cache_variable_before_asking_python(tmp_path):
    headers = _ffi_headers(tmp_path / "given")
    no_jax = {"__init__.py": "raise ImportError('not this one')\n"}
    include, why = _find_xla_ffi(tmp_path, no_jax, ECGEMM_XLA_FFI_INCLUDE_DIR=headers)
    assert (include, why) == (str(headers), "")
    include, why = _find_xla_ffi(tmp_path, no_jax, ECGEMM_XLA_FFI_INCLUDE_DIR=tmp_path / "none")
    assert include == "" and "ECGEMM_XLA_FFI_INCLUDE_DIR = " in why and "holds no" in why


def test_without_the_handler_the_subpackage_says_how_to_build_it(tmp_path):
    pytest.importorskip("jax", reason="needs JAX (the message for a missing JAX is tested "
                                      "above)")
    run = _run("import ecgemm._paths as paths\n"
               f"paths.get_library_dir = lambda: {str(tmp_path)!r}\n"
               "try:\n    import ecgemm.jax\nexcept ImportError as e:\n    print(e)\n")
    assert run.returncode == 0, run.stderr
    assert f"libecgemm_jax.so is not in {tmp_path}" in run.stdout, run.stdout
    assert "--no-build-isolation" in run.stdout and "ECGEMM_XLA_FFI_INCLUDE_DIR" in run.stdout


# --- with JAX and the handler ----------------------------------------------------------

def _ecgemm_jax():
    try:
        import jax  # noqa: F401
    except ImportError:
        pytest.skip("jax is not installed (pip install jax)")
    try:
        import ecgemm.jax as ej
    except ImportError as error:
        pytest.skip(f"ecgemm.jax is not available: {error}")
    return ej


@pytest.fixture(scope="module")
def ej():
    return _ecgemm_jax()


@pytest.fixture
def jnp(ej):
    import jax.numpy as jnp

    return jnp


def reference_target(a, b, p):
    """The custom call's contract (_target.py) in jnp: op(a) @ op(b), a missing batch
    dimension shared; what the CPU tests put in the call's place."""
    import jax
    import jax.numpy as jnp
    from ecgemm.jax._target import as_matrix, product_shape

    shape = product_shape(a.shape, b.shape, p)
    if not p.batched:  # the rows form: every dimension but the last is a row
        a, b = as_matrix(a), as_matrix(b)
    x = jnp.swapaxes(a, -1, -2) if p.transpose_a else a
    y = jnp.swapaxes(b, -1, -2) if p.transpose_b else b
    return jnp.matmul(x, y, precision=jax.lax.Precision.HIGHEST).reshape(shape)


@pytest.fixture
def reference(ej):
    """Swap the custom call for reference_target (JAX's caches cleared around the swap,
    so that no trace of one is reused for the other)."""
    import jax
    from ecgemm.jax import _sharding

    real = _sharding.call_target
    jax.clear_caches()
    _sharding.call_target = reference_target
    try:
        yield
    finally:
        _sharding.call_target = real
        jax.clear_caches()


def rand(*shape, seed=0):
    return np.random.default_rng(seed).uniform(-1, 1, shape).astype(np.float32)


class Call(NamedTuple):
    """One custom call in lowered StableHLO: mode number, transposes, operand shapes."""

    mode: int
    transpose_a: bool
    transpose_b: bool
    a: Tuple[int, ...]
    b: Tuple[int, ...]
    out: Tuple[int, ...]


# Results: the product, then the call's scratch (uint8, sized while tracing: _target.py).
CALL = re.compile(r"stablehlo\.custom_call @ecgemm_matmul\(.*?mhlo\.backend_config = "
                  r"\{mode = (\d+) : i32, transpose_a = (\w+), transpose_b = (\w+)\}.*?"
                  r": \((tensor<[^>]*>), (tensor<[^>]*>)\) -> "
                  r"\((tensor<[^>]*>), tensor<\d+xui8>\)")


def _shape(tensor_type: str) -> Tuple[int, ...]:
    dims = tensor_type[len("tensor<"):-1].split("x")[:-1]
    return tuple(int(d) for d in dims)


def custom_calls(fn, *args) -> List[Call]:
    import jax

    text = jax.jit(fn).lower(*args).as_text()
    calls = [Call(int(m), ta == "true", tb == "true", _shape(a), _shape(b), _shape(c))
             for m, ta, tb, a, b, c in CALL.findall(text)]
    assert len(calls) == text.count("custom_call @ecgemm_matmul"), text
    return calls


# --- errors while tracing ------------------------------------------------------------

@pytest.mark.parametrize("dtype", ["bfloat16", "float16", "int32", "complex64"])
def test_other_dtypes_are_a_type_error_while_tracing(ej, jnp, dtype):
    import jax

    a, b = jnp.ones((4, 3), dtype), jnp.ones((3, 2), jnp.float32)
    with pytest.raises(TypeError, match=f"a has dtype {dtype}; ecgemm computes in float32"):
        jax.eval_shape(ej.matmul, a, b)
    with pytest.raises(TypeError, match=f"rhs has dtype {dtype}"):
        jax.eval_shape(lambda x, y: ej.dot_general(x, y, (((1,), (0,)), ((), ()))), b.T, a)


def test_float64_is_a_type_error_where_jax_keeps_it(ej):
    import jax
    import jax.numpy as jnp

    with jax.enable_x64(True):
        a = jnp.ones((4, 3), jnp.float64)
        with pytest.raises(TypeError, match="a has dtype float64"):
            jax.eval_shape(ej.matmul, a, a.T)


@pytest.mark.parametrize("shapes, message", [
    (((4, 3), (2, 5)), r"a has shape \(4, 3\) and b has shape \(2, 5\): the contraction "
                       r"dimensions 3 and 2 differ"),
    (((3,), (4,)), "the contraction dimensions 3 and 4 differ"),
    (((), (4,)), r"a is a scalar \(0-D\)"),
    (((4,), ()), r"b is a scalar \(0-D\)"),
    (((2, 4, 3), (5, 3, 2)), "the batch dimensions of a .* do not broadcast"),
])
def test_shape_errors_are_a_value_error_while_tracing(ej, jnp, shapes, message):
    import jax

    a, b = (jnp.ones(s, jnp.float32) for s in shapes)
    with pytest.raises(ValueError, match=message):
        jax.eval_shape(ej.matmul, a, b)


@pytest.mark.parametrize("numbers, message", [
    ((((1,), (1,)), ((), ())), r"the contracting dimensions \(1,\) of lhs \(4, 3\) and \(1,\) "
                               r"of rhs \(3, 2\) differ in size"),
    ((((2,), (0,)), ((), ())), r"lhs has shape \(4, 3\); its contracting and batch dimensions"),
    ((((1, 1), (0, 1)), ((), ())), "must be distinct"),
    (((1, 0), ((), ())), "dimension_numbers must be"),
])
def test_dot_general_checks_its_dimension_numbers(ej, jnp, numbers, message):
    with pytest.raises(ValueError, match=message):
        ej.dot_general(jnp.ones((4, 3), jnp.float32), jnp.ones((3, 2), jnp.float32), numbers)


def test_modes_are_checked_and_reach_the_call(ej, jnp):
    import ecgemm

    a, b = jnp.ones((4, 3), jnp.float32), jnp.ones((3, 2), jnp.float32)
    with pytest.raises(ValueError, match="unknown mode 'fast'"):
        ej.matmul(a, b, mode="fast")
    with pytest.raises(TypeError, match="mode must be one of"):
        ej.matmul(a, b, mode=1)
    with pytest.raises(TypeError, match="preferred_element_type = float64"):
        ej.dot_general(a, b, (((1,), (0,)), ((), ())), preferred_element_type=np.float64)
    assert [c.mode for c in custom_calls(ej.matmul, a, b)] == [0]  # tf32tf32, the default
    for number, mode in enumerate(ecgemm.MODES):
        calls = custom_calls(lambda x, y, mode=mode: ej.matmul(x, y, mode=mode.upper()), a, b)
        assert [c.mode for c in calls] == [number]


# --- shapes ------------------------------------------------------------------------------

SHAPES = [((5, 3), (3, 4)), ((3,), (3, 4)), ((5, 3), (3,)), ((3,), (3,)),
          ((2, 5, 3), (3, 4)), ((5, 3), (2, 3, 4)), ((2, 5, 3), (2, 3, 4)),
          ((3, 1, 5, 3), (2, 3, 4)), ((2, 1, 5, 3), (1, 6, 3, 4)), ((7, 3), (2, 3, 1)),
          ((3,), (2, 3, 4)), ((2, 5, 3), (3,)), ((0, 3), (3, 4)), ((5, 0), (0, 4)),
          ((2, 0, 5, 3), (3, 4)), ((1, 5, 3), (1, 3, 4))]


@pytest.mark.parametrize("shape_a, shape_b", SHAPES)
def test_result_shapes_follow_jnp_matmul(ej, jnp, shape_a, shape_b):
    import jax

    a, b = (jax.ShapeDtypeStruct(s, jnp.float32) for s in (shape_a, shape_b))
    assert jax.eval_shape(ej.matmul, a, b) == jax.eval_shape(jnp.matmul, a, b)


@pytest.mark.parametrize("shape_a, shape_b", SHAPES)
def test_matmul_equals_jnp_matmul_around_the_call(ej, jnp, reference, shape_a, shape_b):
    a, b = rand(*shape_a, seed=1), rand(*shape_b, seed=2)
    np.testing.assert_allclose(ej.matmul(a, b), jnp.matmul(a, b, precision="highest"),
                               rtol=1e-5, atol=1e-5)


# lhs shape, rhs shape, ((lhs contracting, rhs contracting), (lhs batch, rhs batch))
DOT_GENERAL = [
    ((5, 3), (3, 4), (((1,), (0,)), ((), ()))),
    ((3, 5), (3, 4), (((0,), (0,)), ((), ()))),        # lhs read transposed
    ((5, 3), (4, 3), (((1,), (1,)), ((), ()))),        # rhs read transposed (x @ W.T)
    ((2, 6, 5, 3), (3, 4), (((3,), (0,)), ((), ()))),  # flax Dense: rows folded
    ((7, 5, 3), (7, 3, 4), (((2,), (1,)), ((0,), (0,)))),
    ((7, 3, 5), (7, 4, 3), (((1,), (2,)), ((0,), (0,)))),
    ((5, 7, 3), (3, 7, 4), (((2,), (0,)), ((1,), (1,)))),  # batch in the middle: transposed
    ((2, 3, 5, 4), (3, 4, 6, 2), (((1, 3), (0, 1)), ((0,), (3,)))),
    ((5,), (4,), (((), ()), ((), ()))),                 # an outer product
    ((2, 5, 3), (2, 3), (((2,), (1,)), ((0,), (0,)))),  # rhs with no free dimension
]


@pytest.mark.parametrize("shape_l, shape_r, numbers", DOT_GENERAL)
def test_dot_general_equals_lax_dot_general(ej, jnp, reference, shape_l, shape_r, numbers):
    import jax

    lhs, rhs = rand(*shape_l, seed=3), rand(*shape_r, seed=4)
    expected = jax.lax.dot_general(lhs, rhs, numbers, precision="highest")
    ours = ej.dot_general(lhs, rhs, numbers)
    assert ours.shape == expected.shape
    np.testing.assert_allclose(ours, expected, rtol=1e-5, atol=1e-5)


def test_dot_general_reads_transposed_operands_in_place(ej, jnp):
    a, w = jnp.ones((5, 3), jnp.float32), jnp.ones((4, 3), jnp.float32)
    calls = custom_calls(lambda x, y: ej.dot_general(x, y, (((1,), (1,)), ((), ()))), a, w)
    assert calls == [Call(0, False, True, (5, 3), (4, 3), (5, 4))]
    x = jnp.ones((2, 6, 5, 3), jnp.float32)
    calls = custom_calls(lambda x, y: ej.dot_general(x, y, (((3,), (1,)), ((), ()))), x, w)
    assert calls == [Call(0, False, True, (60, 3), (4, 3), (60, 4))]


# --- the custom calls of transformed programs --------------------------------------------

def test_a_stack_times_a_matrix_is_one_product_of_its_rows(ej, jnp):
    a, b = jnp.ones((2, 7, 5, 3), jnp.float32), jnp.ones((3, 4), jnp.float32)
    assert custom_calls(ej.matmul, a, b) == [Call(0, False, False, (70, 3), (3, 4), (70, 4))]


def test_a_shared_matrix_is_not_copied_into_the_batch(ej, jnp):
    a, b = jnp.ones((5, 3), jnp.float32), jnp.ones((2, 7, 3, 4), jnp.float32)
    assert custom_calls(ej.matmul, a, b) == [Call(0, False, False, (5, 3), (14, 3, 4),
                                                  (14, 5, 4))]


@pytest.mark.parametrize("in_axes, expected", [
    ((0, None), Call(0, False, False, (28, 5), (5, 3), (28, 3))),
    ((None, 0), Call(0, False, False, (4, 5), (7, 5, 3), (7, 4, 3))),
    ((0, 0), Call(0, False, False, (7, 4, 5), (7, 5, 3), (7, 4, 3))),
    ((2, 1), Call(0, False, False, (7, 4, 5), (7, 5, 3), (7, 4, 3))),
])
def test_vmap_makes_one_batched_call(ej, jnp, in_axes, expected):
    import jax

    a = jnp.ones({0: (7, 4, 5), None: (4, 5), 2: (4, 5, 7)}[in_axes[0]], jnp.float32)
    b = jnp.ones({0: (7, 5, 3), None: (5, 3), 1: (5, 7, 3)}[in_axes[1]], jnp.float32)
    assert custom_calls(jax.vmap(ej.matmul, in_axes=in_axes), a, b) == [expected]


def test_nested_vmap_makes_one_batched_call(ej, jnp):
    import jax

    a, b = jnp.ones((2, 3, 4, 5), jnp.float32), jnp.ones((3, 5, 6), jnp.float32)
    inner = jax.vmap(ej.matmul, in_axes=(0, 0))
    calls = custom_calls(jax.vmap(inner, in_axes=(0, None)), a, b)
    # b is shared by the outer vmap but batched by the inner: materialised, as jnp does.
    assert calls == [Call(0, False, False, (6, 4, 5), (6, 5, 6), (6, 4, 6))]
    calls = custom_calls(jax.vmap(jax.vmap(ej.matmul, in_axes=(0, None)), in_axes=(0, None)),
                         a, b[0])
    assert calls == [Call(0, False, False, (24, 5), (5, 6), (24, 6))]


@pytest.mark.parametrize("shape_a, shape_b, in_axes", [
    ((7, 4, 5), (5, 3), (0, None)), ((4, 5), (7, 5, 3), (None, 0)),
    ((4, 5, 7), (5, 7, 3), (2, 1)), ((7, 2, 4, 5), (2, 5, 3), (0, None)),
    ((7, 5), (7, 5), (0, 0)), ((7, 5), (5, 3), (0, None)),
])
def test_vmap_equals_jnp_matmul_around_the_call(ej, jnp, reference, shape_a, shape_b, in_axes):
    import jax

    a, b = rand(*shape_a, seed=5), rand(*shape_b, seed=6)
    expected = jax.vmap(lambda x, y: jnp.matmul(x, y, precision="highest"), in_axes)(a, b)
    np.testing.assert_allclose(jax.vmap(ej.matmul, in_axes)(a, b), expected, rtol=1e-5,
                               atol=1e-5)


def test_grad_is_computed_by_two_calls_in_the_same_mode(ej, jnp):
    import jax

    a, b = jnp.ones((4, 5), jnp.float32), jnp.ones((5, 3), jnp.float32)
    loss = lambda x, y: ej.matmul(x, y, mode="halfhalf").sum()  # noqa: E731
    calls = custom_calls(jax.value_and_grad(loss, argnums=(0, 1)), a, b)
    assert sorted(calls) == sorted([
        Call(1, False, False, (4, 5), (5, 3), (4, 3)),   # the forward product
        Call(1, False, True, (4, 3), (5, 3), (4, 5)),    # dA = dC·Bᵀ, B read transposed
        Call(1, True, False, (4, 5), (4, 3), (5, 3)),    # dB = Aᵀ·dC, A read transposed
    ])
    # Only what is asked for is computed (the loss's value, the other gradient dropped).
    assert custom_calls(jax.grad(loss, argnums=0), a, b) == [
        Call(1, False, True, (4, 3), (5, 3), (4, 5))]


@pytest.mark.parametrize("shape_a, shape_b", [
    ((4, 5), (5, 3)), ((2, 4, 5), (5, 3)), ((4, 5), (2, 5, 3)), ((2, 4, 5), (2, 5, 3)),
    ((5,), (5, 3)), ((4, 5), (5,)), ((3, 1, 4, 5), (2, 5, 3)),
])
def test_grad_equals_jnp_grad_around_the_call(ej, jnp, reference, shape_a, shape_b):
    import jax

    a, b = rand(*shape_a, seed=7), rand(*shape_b, seed=8)
    weight = rand(*jnp.matmul(a, b).shape, seed=9)
    ours = jax.grad(lambda x, y: (ej.matmul(x, y) * weight).sum(), argnums=(0, 1))(a, b)
    theirs = jax.grad(lambda x, y: (jnp.matmul(x, y, precision="highest") * weight).sum(),
                      argnums=(0, 1))(a, b)
    for o, t in zip(ours, theirs):
        assert o.shape == t.shape
        np.testing.assert_allclose(o, t, rtol=1e-5, atol=1e-5)


def test_transposed_operands_differentiate(ej, jnp, reference):
    import jax

    numbers = (((1,), (2,)), ((0,), (0,)))  # (B, k, m) and (B, n, k): both read transposed
    lhs, rhs = rand(3, 5, 4, seed=10), rand(3, 6, 5, seed=11)
    f = lambda g: lambda x, y: (g(x, y, numbers) ** 2).sum()  # noqa: E731
    ours = jax.grad(f(ej.dot_general), argnums=(0, 1))(lhs, rhs)
    theirs = jax.grad(f(lambda x, y, n: jax.lax.dot_general(x, y, n, precision="highest")),
                      argnums=(0, 1))(lhs, rhs)
    for o, t in zip(ours, theirs):
        np.testing.assert_allclose(o, t, rtol=1e-4, atol=1e-4)


def test_vmap_of_grad_and_grad_of_vmap(ej, jnp, reference):
    import jax

    a, b = rand(6, 4, 5, seed=12), rand(5, 3, seed=13)

    def per_item(f):
        return lambda x, y: (f(x, y) ** 2).sum()

    mm = lambda x, y: jnp.matmul(x, y, precision="highest")  # noqa: E731
    for transform in (lambda f: jax.vmap(jax.grad(per_item(f), argnums=(0, 1)), (0, None)),
                      lambda f: jax.grad(lambda x, y: jax.vmap(per_item(f), (0, None))(x, y)
                                         .sum(), argnums=(0, 1))):
        for o, t in zip(transform(ej.matmul)(a, b), transform(mm)(a, b)):
            np.testing.assert_allclose(o, t, rtol=1e-4, atol=1e-4)


def test_scan_runs_the_call_in_its_body(ej, jnp, reference):
    import jax

    w, h0 = rand(8, 8, seed=14) / 4, rand(3, 8, seed=15)

    def run(mm):
        def step(h, _):
            h = jnp.tanh(mm(h, w))
            return h, h.sum()
        return jax.lax.scan(step, h0, None, length=5)

    ours, theirs = run(ej.matmul), run(lambda x, y: jnp.matmul(x, y, precision="highest"))
    for o, t in zip(jax.tree.leaves(ours), jax.tree.leaves(theirs)):
        np.testing.assert_allclose(o, t, rtol=1e-5, atol=1e-5)
    grads = jax.grad(lambda w_: jax.lax.scan(lambda h, _: (jnp.tanh(ej.matmul(h, w_)), None),
                                             h0, None, length=5)[0].sum())(w)
    expected = jax.grad(lambda w_: jax.lax.scan(
        lambda h, _: (jnp.tanh(jnp.matmul(h, w_, precision="highest")), None),
        h0, None, length=5)[0].sum())(w)
    np.testing.assert_allclose(grads, expected, rtol=1e-4, atol=1e-5)


def test_forward_mode_is_refused(ej, jnp):
    import jax

    a, b = jnp.ones((4, 5), jnp.float32), jnp.ones((5, 3), jnp.float32)
    with pytest.raises(TypeError, match="custom_vjp"):
        jax.jvp(lambda x: ej.matmul(x, b), (a,), (a,))


# --- errors from XLA -----------------------------------------------------------------------

def test_the_host_handler_refuses_with_a_clear_error(ej, jnp):
    import jax

    cpu = jax.devices("cpu")[0]  # explicit: on a GPU machine arrays default to the GPU
    a = jax.device_put(jnp.ones((4, 5), jnp.float32), cpu)
    b = jax.device_put(jnp.ones((5, 3), jnp.float32), cpu)
    with pytest.raises(jax.errors.JaxRuntimeError,
                       match="ecgemm computes on CUDA GPUs, but this computation was placed "
                             "on the CPU"):
        jax.block_until_ready(ej.matmul(a, b))


def test_the_handler_checks_what_other_callers_send(ej, jnp):
    """The target called directly with shapes that disagree: an XLA error, not a crash."""
    import jax

    call = jax.ffi.ffi_call("ecgemm_matmul", (jax.ShapeDtypeStruct((4, 3), jnp.float32),
                                              jax.ShapeDtypeStruct((0,), jnp.uint8)))
    a, b = jnp.ones((4, 5), jnp.float32), jnp.ones((6, 3), jnp.float32)
    with pytest.raises(jax.errors.JaxRuntimeError,
                       match=r"ecgemm_matmul: a \(4, 5\), b \(6, 3\) and c \(4, 3\) do not agree"):
        jax.block_until_ready(call(a, b, mode=np.int32(0), transpose_a=False,
                                   transpose_b=False))


# --- sharding, on 8 CPU devices in a process of its own ------------------------------------

def _sharding_check():
    """Run in a subprocess with 8 CPU devices; raises AssertionError on a mismatch."""
    import jax
    import jax.numpy as jnp
    from jax.sharding import AxisType, NamedSharding
    from jax.sharding import PartitionSpec as P

    ej = _ecgemm_jax()
    from ecgemm.jax import _sharding

    mesh = jax.make_mesh((4, 2), ("x", "y"), axis_types=(AxisType.Auto,) * 2)
    cases = [  # a's shape and spec, b's shape and spec
        ((16, 8), P("x", None), (8, 12), P(None, "y")),
        ((16, 8), P(None, "x"), (8, 12), P("x", None)),        # k sharded: an all-reduce
        ((16, 8), P("x", "y"), (8, 12), P("y", None)),
        ((16, 8), P(None, None), (8, 12), P(None, "x")),
        ((16, 8), P("y", "x"), (8, 12), P("x", "y")),
        ((16, 8), P("x", None), (8, 12), P(None, "x")),         # one axis claimed twice
        ((4, 16, 8), P("x", None, None), (4, 8, 12), P("x", None, "y")),
        ((4, 16, 8), P(None, "y", "x"), (8, 12), P("x", None)),
        ((16, 8), P("x", None), (4, 8, 12), P(None, None, "y")),
        ((8, 4, 16, 8), P("x", "y", None, None), (8, 12), P()),
    ]
    shard = lambda x, spec: jax.device_put(x, NamedSharding(mesh, spec))  # noqa: E731
    for shape_a, spec_a, shape_b, spec_b in cases:
        a, b = shard(rand(*shape_a, seed=1), spec_a), shard(rand(*shape_b, seed=2), spec_b)
        theirs = jax.jit(jnp.matmul).lower(a, b).compile()
        ours = jax.jit(ej.matmul).lower(a, b).compile()
        ndim = len(jax.eval_shape(jnp.matmul, a, b).shape)
        assert ours.output_shardings.is_equivalent_to(theirs.output_shardings, ndim), \
            (spec_a, spec_b, ours.output_shardings, theirs.output_shardings)
        hlo = ours.as_text()
        assert ("all-reduce" in hlo) == ("all-reduce" in theirs.as_text()), (spec_a, spec_b)

    # The layers around the call, run on the CPU devices through the reference.
    real, _sharding.call_target = _sharding.call_target, reference_target
    jax.clear_caches()
    try:
        for shape_a, spec_a, shape_b, spec_b in cases:
            x, y = rand(*shape_a, seed=3), rand(*shape_b, seed=4)
            a, b = shard(x, spec_a), shard(y, spec_b)
            expected = np.matmul(x.astype(np.float64), y.astype(np.float64))
            np.testing.assert_allclose(jax.jit(ej.matmul)(a, b), expected, rtol=1e-5, atol=1e-5)
            grad = jax.jit(jax.grad(lambda p, q: ej.matmul(p, q).sum(), argnums=(0, 1)))(a, b)
            expected = jax.grad(lambda p, q: jnp.matmul(p, q, precision="highest").sum(),
                                argnums=(0, 1))(x, y)
            for o, t in zip(grad, expected):
                np.testing.assert_allclose(o, t, rtol=1e-5, atol=1e-5)
        # shard_map: each device multiplies its own blocks.
        x, y = rand(16, 8, seed=5), rand(8, 12, seed=6)
        f = jax.shard_map(ej.matmul, mesh=mesh, in_specs=(P("x", None), P(None, "y")),
                          out_specs=P("x", "y"))
        np.testing.assert_allclose(jax.jit(f)(x, y), x.astype(np.float64) @ y, rtol=1e-5,
                                   atol=1e-5)
        g = jax.shard_map(lambda p, q: jax.lax.psum(ej.matmul(p, q), "x"), mesh=mesh,
                          in_specs=(P(None, "x"), P("x", None)), out_specs=P())
        np.testing.assert_allclose(jax.jit(g)(x, y), x.astype(np.float64) @ y, rtol=1e-5,
                                   atol=1e-5)
    finally:
        _sharding.call_target = real
        jax.clear_caches()
    calls = custom_calls(f, x, y)
    assert calls == [Call(0, False, False, (4, 8), (8, 6), (4, 6))], calls
    print(json.dumps({"cases": len(cases)}))


def test_sharded_jit_places_the_result_as_jnp_matmul_does(ej):
    env = dict(os.environ, JAX_PLATFORMS="cpu")
    code = ("import jax; jax.config.update('jax_num_cpu_devices', 8)\n"
            "import test_jax; test_jax._sharding_check()\n")
    run = _run(code, env=env)
    assert run.returncode == 0, run.stderr[-4000:]
    assert json.loads(run.stdout.splitlines()[-1])["cases"] == 10
