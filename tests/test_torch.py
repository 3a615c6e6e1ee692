"""ecgemm.torch without a GPU: the operators' schemas, fake (meta) kernels, errors,
autograd graphs, torch.compile, the TorchFunctionMode, Linear, and the DTensor
strategies (on a fake process group). Needs PyTorch; skipped where it is missing.

Meta tensors run the fake kernels; FakeTensorMode stands CUDA tensors in for real
ones, so the routing to ``ecgemm::mm`` is checked on the graphs PyTorch records.
"""

import itertools
import subprocess
import sys

import pytest

torch = pytest.importorskip("torch")
import torch.nn.functional as F  # noqa: E402

import ecgemm  # noqa: E402
import ecgemm.torch as et  # noqa: E402
from ecgemm.torch._ops import readable  # noqa: E402

META = "meta"


def meta(*shape, dtype=torch.float32, requires_grad=False):
    return torch.empty(shape, dtype=dtype, device=META, requires_grad=requires_grad)


def traced_ops(fn, *args):
    """The operators (as strings) that `fn` runs on `args`, recorded by make_fx."""
    from torch.fx.experimental.proxy_tensor import make_fx

    graph = make_fx(fn)(*args).graph
    return [str(node.target) for node in graph.nodes if node.op == "call_function"]


def products(ops):
    """The matrix products among recorded operators."""
    return [op for op in ops if op.split(".")[-2] in ("mm", "bmm", "addmm", "baddbmm")]


# --- the package ---------------------------------------------------------------

def test_import_ecgemm_does_not_import_torch():
    code = "import sys, ecgemm; assert 'torch' not in sys.modules, 'ecgemm imported torch'"
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)


def test_without_torch_the_subpackage_says_how_to_get_it():
    code = ("import sys; sys.modules['torch'] = None\n"
            "try:\n    import ecgemm.torch\nexcept ImportError as e:\n    print(e)\n")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120, check=True)
    assert "ecgemm.torch needs PyTorch" in run.stdout


def test_schemas_take_the_mode_as_an_argument():
    assert str(torch.ops.ecgemm.mm.default._schema) == (
        'ecgemm::mm(Tensor a, Tensor b, str mode="tf32tf32") -> Tensor')
    assert str(torch.ops.ecgemm.bmm.default._schema) == (
        'ecgemm::bmm(Tensor a, Tensor b, str mode="tf32tf32") -> Tensor')
    assert et.DEFAULT_MODE == "tf32tf32" and set(et.__all__) >= {
        "mm", "bmm", "matmul", "linear", "Linear", "enabled"}


# --- fake kernels: shapes, dtypes, layouts ---------------------------------------

@pytest.mark.parametrize("m,k,n", [(5, 3, 4), (1, 1, 1), (0, 3, 4), (5, 0, 4), (5, 3, 0)])
def test_mm_fake_kernel_gives_a_contiguous_float32_result(m, k, n):
    c = et.mm(meta(m, k), meta(k, n))
    assert c.shape == (m, n) and c.dtype == torch.float32 and c.is_contiguous()
    assert c.device.type == META


def test_bmm_fake_kernel_and_transposed_operands():
    a, b = meta(6, 4, 2).mT, meta(6, 3, 4).mT  # (6, 2, 4) @ (6, 4, 3), no copy needed
    c = et.bmm(a, b, mode="halfhalf")
    assert c.shape == (6, 2, 3) and c.is_contiguous()


@pytest.mark.parametrize("a_shape,b_shape", [
    ((4,), (4,)), ((4,), (4, 3)), ((5, 4), (4,)), ((2, 5, 4), (4,)), ((4,), (2, 4, 3)),
    ((2, 5, 4), (4, 3)), ((5, 4), (2, 4, 3)), ((7, 1, 5, 4), (3, 4, 2)), ((2, 5, 4), (2, 4, 3)),
])
def test_matmul_follows_torch_matmul_shapes_and_uses_only_ecgemm_products(a_shape, b_shape):
    a, b = meta(*a_shape), meta(*b_shape)
    assert et.matmul(a, b).shape == torch.matmul(a, b).shape
    ops = products(traced_ops(lambda x, y: et.matmul(x, y), a, b))
    assert ops and all(op.startswith("ecgemm.") for op in ops), ops


@pytest.mark.parametrize("x_shape", [(8,), (5, 8), (2, 3, 8)])
def test_linear_matches_f_linear_shapes(x_shape):
    x, w, bias = meta(*x_shape), meta(4, 8), meta(4)
    assert et.linear(x, w, bias).shape == F.linear(x, w, bias).shape
    assert et.linear(x, w).shape == F.linear(x, w).shape


def test_readable_keeps_transposes_and_slices_and_copies_only_unreadable_layouts():
    x = torch.arange(48, dtype=torch.float32).reshape(6, 8)
    for view in (x, x.T, x[1:4, 2:7], x[:, 3:5].T, x[:1], x[:, :1]):
        kept = readable(view)
        assert kept.data_ptr() == view.data_ptr() and kept.stride() == view.stride()
    for view in (x[:, ::2], x[::2, ::2], x[0].expand(5, 8), x[:, 0:1].expand(6, 5)):
        copy = readable(view)
        assert copy.is_contiguous() and torch.equal(copy, view)
    grad = torch.ones((), requires_grad=True).expand(4, 4)
    assert not readable(grad).requires_grad  # __cuda_array_interface__ refuses grad tensors


# --- errors: the same in eager mode, on meta tensors and while tracing -----------

@pytest.mark.parametrize("dtype", [torch.float64, torch.float16, torch.bfloat16, torch.int32])
def test_other_dtypes_are_type_errors_that_say_how_to_convert(dtype):
    with pytest.raises(TypeError, match=r"float32.*\.float\(\)"):
        et.mm(meta(3, 4, dtype=dtype), meta(4, 2))
    with pytest.raises(TypeError, match="b has dtype"):
        et.bmm(meta(2, 3, 4), meta(2, 4, 2, dtype=dtype))


def test_cpu_tensors_are_refused_with_a_hint():
    """ecgemm computes on GPUs and PyTorch never moves tensors implicitly."""
    a, b = torch.ones(3, 4), torch.ones(4, 2)
    with pytest.raises(TypeError, match=r"on cpu.*\.cuda\(\).*torch\.mm"):
        et.mm(a, b)
    with pytest.raises(TypeError, match=r"on cpu"):
        et.bmm(a[None], b[None])


def test_shape_errors():
    with pytest.raises(ValueError, match="contraction dimensions 4 and 5 differ"):
        et.mm(meta(3, 4), meta(5, 2))
    with pytest.raises(ValueError, match="must be 2-D"):
        torch.ops.ecgemm.mm(meta(2, 3, 4), meta(4, 2), "tf32tf32")
    with pytest.raises(ValueError, match="must be 3-D"):
        et.bmm(meta(3, 4), meta(4, 2))
    with pytest.raises(ValueError, match="bmm does not broadcast"):
        et.bmm(meta(2, 3, 4), meta(3, 4, 2))
    with pytest.raises(ValueError, match="contraction dimensions"):
        et.matmul(meta(2, 3, 4), meta(2, 5, 2))
    with pytest.raises(ValueError, match="at least one dimension"):
        et.matmul(meta(), meta(3))


def test_modes_are_checked_by_name():
    with pytest.raises(ValueError, match="unknown mode 'tf64'"):
        et.mm(meta(3, 4), meta(4, 2), mode="tf64")
    with pytest.raises(ValueError, match="unknown mode"):
        torch.ops.ecgemm.mm(meta(3, 4), meta(4, 2), "bogus")
    with pytest.raises(ValueError, match="unknown mode"):
        et.enabled(mode="bogus")
    with pytest.raises(ValueError, match="unknown mode"):
        et.Linear(3, 4, mode="bogus")
    for mode in ecgemm.MODES:
        assert et.mm(meta(3, 4), meta(4, 2), mode=mode.upper()).shape == (3, 2)


def test_sparse_operands_are_refused():
    sparse = torch.eye(3).to_sparse()
    with pytest.raises(TypeError, match="layout"):
        torch.ops.ecgemm.mm(sparse, torch.ones(3, 3), "tf32tf32")


# --- autograd --------------------------------------------------------------------

@pytest.mark.parametrize("need", [(True, True), (True, False), (False, True)])
def test_backward_computes_the_requested_gradients_with_ecgemm(need):
    a, b = meta(5, 3, requires_grad=need[0]), meta(3, 4, requires_grad=need[1])
    c = et.mm(a, b, mode="halfhalf")
    grads = torch.autograd.grad(c, [t for t in (a, b) if t.requires_grad], meta(5, 4))
    assert [g.shape for g in grads] == [t.shape for t in (a, b) if t.requires_grad]

    def step(a, b, g):
        leaves = [t.requires_grad_(r) for t, r in zip((a, b), need)]
        out = et.mm(leaves[0], leaves[1], mode="halfhalf")
        return torch.autograd.grad(out, [t for t in leaves if t.requires_grad], g)

    ops = products(traced_ops(step, meta(5, 3), meta(3, 4), meta(5, 4)))
    assert ops == ["ecgemm.mm.default"] * (1 + sum(need))  # forward + one per gradient


def test_bmm_and_matmul_gradients_have_their_operands_shapes():
    a, b = meta(7, 1, 5, 3, requires_grad=True), meta(4, 3, 2, requires_grad=True)
    c = et.matmul(a, b)
    ga, gb = torch.autograd.grad(c, (a, b), meta(*c.shape))
    assert ga.shape == a.shape and gb.shape == b.shape


# --- torch.compile -----------------------------------------------------------------

class RecordingBackend:
    """A torch.compile backend that records the operators of each graph it gets."""

    def __init__(self):
        self.graphs = []

    def __call__(self, gm, example_inputs):
        self.graphs.append([str(n.target) for n in gm.graph.nodes if n.op == "call_function"])
        return gm


@pytest.fixture(autouse=True)
def _fresh_dynamo():
    yield
    torch._dynamo.reset()


def test_compile_fullgraph_keeps_the_operators_in_one_graph():
    backend = RecordingBackend()

    def f(a, b, c):
        return torch.relu(et.mm(a, b, mode="halfhalf")) + et.bmm(c, c.mT).sum(0)

    out = torch.compile(f, backend=backend, fullgraph=True)(meta(5, 3), meta(3, 5), meta(2, 5, 5))
    assert out.shape == (5, 5)
    assert len(backend.graphs) == 1
    assert {"ecgemm.mm", "ecgemm.bmm"} <= set(backend.graphs[0])


def test_compile_fullgraph_traces_forward_and_backward():
    a, b = meta(6, 4, requires_grad=True), meta(4, 3, requires_grad=True)
    f = torch.compile(lambda a, b: et.matmul(a, b).relu().sum(), backend="aot_eager",
                      fullgraph=True)
    f(a, b).backward()
    assert a.grad.shape == a.shape and b.grad.shape == b.shape


def test_compile_fullgraph_of_code_inside_the_mode():
    backend = RecordingBackend()

    def f(x, w):
        with et.enabled(mode="tf32tf32"):
            return (F.linear(x, w).relu() @ w).sum()

    torch.compile(f, backend=backend, fullgraph=True)(meta(16, 8), meta(4, 8))
    assert len(backend.graphs) == 1
    assert backend.graphs[0].count("ecgemm.mm") == 2


# --- the TorchFunctionMode ---------------------------------------------------------

ROUTED_CALLS = {
    "torch.mm": lambda a, b: torch.mm(a, b),
    "Tensor.mm": lambda a, b: a.mm(b),
    "torch.matmul": lambda a, b: torch.matmul(a, b),
    "Tensor.matmul": lambda a, b: a.matmul(b),
    "@": lambda a, b: a @ b,
    "__rmatmul__": lambda a, b: b.__rmatmul__(a),
    "F.linear": lambda a, b: F.linear(a, b.T),
    "F.linear+bias": lambda a, b: F.linear(a, b.T, b[0]),
    "nn.Linear": lambda a, b: torch.nn.Linear(4, 4, device=a.device, dtype=a.dtype)(a),
    "torch.bmm": lambda a, b: torch.bmm(a[None], b[None]),
    "Tensor.bmm": lambda a, b: a[None].bmm(b[None]),
    "keywords": lambda a, b: torch.mm(input=a, mat2=b),
}


def under_mode(call, mode="halfhalf"):
    def fn(a, b):
        with et.enabled(mode=mode):
            return call(a, b)
    return fn


@pytest.mark.parametrize("name", ROUTED_CALLS)
def test_the_mode_routes_float32_products_to_ecgemm(name):
    ops = products(traced_ops(under_mode(ROUTED_CALLS[name]), meta(4, 4), meta(4, 4)))
    assert ops and all(op.startswith("ecgemm.") for op in ops), ops


def test_the_mode_routes_fake_cuda_tensors():
    from torch._subclasses.fake_tensor import FakeTensorMode

    with FakeTensorMode():
        a = torch.empty(4, 4, device="cuda")
        ops = products(traced_ops(under_mode(lambda a, b: a @ b), a, a))
    assert ops == ["ecgemm.mm.default"]


@pytest.mark.parametrize("name", ["torch.mm", "@", "F.linear", "torch.bmm"])
def test_the_mode_leaves_other_dtypes_alone(name):
    a = meta(4, 4, dtype=torch.float64)
    ops = products(traced_ops(under_mode(ROUTED_CALLS[name]), a, a))
    assert ops and not any(op.startswith("ecgemm.") for op in ops), ops


def test_the_mode_leaves_cpu_tensors_and_out_calls_to_pytorch():
    a = torch.randn(5, 5, generator=torch.Generator().manual_seed(0))
    out = torch.empty(5, 5)
    with et.enabled():
        c = a @ a  # would raise TypeError if it reached ecgemm::mm
        torch.mm(a, a, out=out)
        half = a.half() @ a.half()
    assert torch.equal(c, torch.mm(a, a)) and torch.equal(out, c)
    assert half.dtype == torch.float16
    ops = products(traced_ops(under_mode(lambda a, b: torch.mm(a, b, out=torch.empty_like(a))),
                              meta(4, 4), meta(4, 4)))
    assert ops and not any(op.startswith("ecgemm.") for op in ops)


def test_the_mode_is_off_outside_its_block():
    def fn(a, b):
        with et.enabled():
            a = a @ b
        return a @ b

    assert products(traced_ops(fn, meta(4, 4), meta(4, 4))) == [
        "ecgemm.mm.default", "aten.mm.default"]


# --- Linear --------------------------------------------------------------------------

def test_linear_is_a_drop_in_nn_linear():
    torch.manual_seed(0)
    ours = et.Linear(8, 4, mode="halfhalf")
    torch.manual_seed(0)
    theirs = torch.nn.Linear(8, 4)
    assert isinstance(ours, torch.nn.Linear)
    assert list(ours.state_dict()) == list(theirs.state_dict()) == ["weight", "bias"]
    assert all(torch.equal(p, q) for p, q in zip(ours.parameters(), theirs.parameters()))
    assert "mode='halfhalf'" in repr(ours)
    theirs.load_state_dict(ours.state_dict())
    assert et.Linear(8, 4, bias=False).bias is None


def test_linear_falls_back_to_pytorch_off_the_gpu_and_for_other_dtypes():
    layer = et.Linear(8, 4)
    x = torch.randn(3, 8)
    assert torch.equal(layer(x), F.linear(x, layer.weight, layer.bias))
    assert layer.double()(x.double()).dtype == torch.float64


def test_linear_routes_float32_gpu_and_meta_inputs_to_ecgemm():
    layer = et.Linear(8, 4, device=META)
    ops = products(traced_ops(lambda x: layer(x), meta(2, 3, 8)))
    assert ops == ["ecgemm.mm.default"]


def test_from_linear_shares_the_parameters():
    theirs = torch.nn.Linear(8, 4)
    ours = et.Linear.from_linear(theirs, mode="tf32")
    assert ours.weight is theirs.weight and ours.bias is theirs.bias and ours.mode == "tf32"
    assert et.Linear.from_linear(torch.nn.Linear(8, 4, bias=False)).bias is None


# --- DTensor: the strategies equal PyTorch's for torch.mm / torch.bmm ---------------

@pytest.fixture(scope="module")
def fake_world():
    """A fake two-rank process group (no communication) and fake CUDA tensors."""
    if not torch.distributed.is_available():
        pytest.skip("torch.distributed is not available in this PyTorch build")
    import torch.distributed as dist
    from torch.testing._internal.distributed.fake_pg import FakeStore

    dist.init_process_group("fake", store=FakeStore(), rank=0, world_size=4)
    yield dist
    dist.destroy_process_group()


def distributed(mesh, shape, placements):
    """A DTensor of global `shape` with `placements`, from a fake local shard."""
    from torch.distributed.tensor import DTensor, Shard

    local = list(shape)
    for mesh_dim, placement in enumerate(placements):
        if isinstance(placement, Shard):
            local[placement.dim] //= mesh.size(mesh_dim)
    return DTensor.from_local(torch.empty(local, device="cuda"), mesh, placements,
                              shape=torch.Size(shape),
                              stride=torch.empty(shape, device=META).stride())


def placements_for(ndim):
    from torch.distributed.tensor import Partial, Replicate, Shard

    return [Replicate(), Partial()] + [Shard(d) for d in range(ndim)]


@pytest.mark.parametrize("op,mesh_shape", [("mm", (2,)), ("mm", (2, 2)), ("bmm", (2,))])
def test_dtensor_places_results_as_torch_does(fake_world, mesh_shape, op):
    """Every input placement on a 1-D and a 2-D mesh: the same result placement and
    local shape as torch.mm / torch.bmm (bmm on a 2-D mesh: 625 cases, 25 s: left out)."""
    from torch._subclasses.fake_tensor import FakeTensorMode
    from torch.distributed.device_mesh import DeviceMesh

    mesh = DeviceMesh("cuda", torch.arange(4)[:mesh_shape[0] * (mesh_shape + (1,))[1]]
                      .reshape(mesh_shape))
    batched = op == "bmm"
    a_shape, b_shape = ((4, 8, 12), (4, 12, 8)) if batched else ((8, 12), (12, 8))
    ours, theirs = getattr(et, op), getattr(torch, op)
    single = placements_for(len(a_shape))
    checked = 0
    with FakeTensorMode():
        for pa, pb in itertools.product(itertools.product(single, repeat=len(mesh_shape)),
                                        repeat=2):
            a, b = distributed(mesh, a_shape, pa), distributed(mesh, b_shape, pb)
            expected, got = theirs(a, b), ours(a, b, mode="halfhalf")
            assert got.placements == expected.placements, (pa, pb)
            assert got.shape == expected.shape
            assert got.to_local().shape == expected.to_local().shape
            checked += 1
    assert checked == len(single) ** (2 * len(mesh_shape))


def test_tensor_parallel_linear_shards_and_runs_ecgemm(fake_world, monkeypatch):
    from torch._subclasses.fake_tensor import FakeTensorMode
    from torch.distributed.device_mesh import DeviceMesh
    from torch.distributed.tensor import Shard
    from torch.distributed.tensor.parallel import (ColwiseParallel, RowwiseParallel,
                                                   parallelize_module)
    from torch.utils._python_dispatch import TorchDispatchMode

    class Recorder(TorchDispatchMode):
        def __init__(self):
            super().__init__()
            self.ops = []

        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            self.ops.append(str(func))
            return func(*args, **(kwargs or {}))

    if not torch.cuda.is_available():
        # Replicating a fake CUDA tensor asks the device's capability (to pick a broadcast
        # algorithm); without a driver, answer as a Hopper GPU would.
        monkeypatch.setattr(torch.cuda, "get_device_capability", lambda device=None: (9, 0))
    mesh = DeviceMesh("cuda", [0, 1])
    with FakeTensorMode():
        model = torch.nn.Sequential(et.Linear(8, 16, device="cuda"), torch.nn.ReLU(),
                                    et.Linear(16, 4, device="cuda"))
        parallelize_module(model, mesh, {"0": ColwiseParallel(), "2": RowwiseParallel()})
        assert model[0].weight.placements == (Shard(0),)
        assert model[2].weight.placements == (Shard(1),)
        with Recorder() as recorder:
            y = model(torch.empty(5, 3, 8, device="cuda"))
    assert y.shape == (5, 3, 4)
    assert products(recorder.ops) == ["ecgemm.mm.default"] * 2, recorder.ops
