"""ecgemm.torch on a GPU: accuracy and gradients against float64 autograd and cuBLAS
FP32 (TF32 off), layouts read in place, PyTorch's current stream, torch.compile with
Inductor, the TorchFunctionMode, Linear, and torch.library.opcheck.

Accepted error (Frobenius norm, against the float64 product of the same float32
inputs): max(1.25 x cuBLAS SGEMM's, MAGMA's c·u·sqrt(k+2)·|A|·|B|, c = 8), the rule of
the numerics property tests. The two-GPU DTensor checks are tests/torch_dist_check.py.
"""

import pytest

torch = pytest.importorskip("torch")
import torch.nn.functional as F  # noqa: E402

import ecgemm  # noqa: E402
from _numerics_hypothesis import accepted_error  # noqa: E402
from bench.methods import set_tf32  # noqa: E402
from bench.torch_bench import train  # noqa: E402

pytestmark = pytest.mark.gpu

ACCURATE = ("tf32tf32", "halfhalf", "fp32", "auto")
ONE_PASS_FLOOR = 1e-5  # relative error above which tf32/fp16 show that the mode was used
M, K, N, BATCH = 197, 301, 131, 3  # ragged on purpose


@pytest.fixture(scope="module", autouse=True)
def et():
    if not torch.cuda.is_available():
        pytest.skip("PyTorch sees no GPU")
    import ecgemm.torch as et

    set_tf32(torch, False)  # cuBLAS's reference is true FP32 (PyTorch's default too)
    return et


def rand(*shape, seed=0, requires_grad=False):
    g = torch.Generator(device="cuda").manual_seed(seed)
    t = torch.rand(shape, generator=g, device="cuda") * 2 - 1
    return t.requires_grad_(requires_grad)


def error(x, reference):
    return float(torch.linalg.norm((x.double() - reference).flatten()))


def assert_fp32_accurate(ours, cublas, a, b):
    """`ours` and `cublas` are float32 results of a @ b (2-D or stacks of 2-D)."""
    reference = a.double() @ b.double()
    a2, b2 = a.reshape(-1, a.shape[-1]), b.mT.reshape(-1, b.shape[-2]).T  # for the norms
    bound = accepted_error(error(cublas, reference), a2.detach().cpu().numpy(),
                           b2.detach().cpu().numpy(), None, 1.0, 0.0)
    assert error(ours, reference) <= bound, (error(ours, reference), error(cublas, reference))


def poison_allocator(*shape):
    """Leave a NaN-filled block in PyTorch's cache for the next allocation of `shape`."""
    torch.full(shape, float("nan"), device="cuda")


# --- the operators ----------------------------------------------------------------------

@pytest.mark.parametrize("mode", ACCURATE)
def test_mm_meets_sgemm_accuracy_in_every_accurate_mode(et, mode):
    a, b = rand(M, K, seed=1), rand(K, N, seed=2)
    poison_allocator(M, N)
    c = et.mm(a, b, mode=mode)
    assert c.shape == (M, N) and c.dtype == torch.float32 and c.is_contiguous()
    assert not c.isnan().any()
    assert_fp32_accurate(c, a @ b, a, b)


@pytest.mark.parametrize("mode", ["tf32", "fp16"])
def test_one_pass_modes_reach_the_kernel(et, mode):
    a, b = rand(M, K, seed=1), rand(K, N, seed=2)
    reference = a.double() @ b.double()
    relative = error(et.mm(a, b, mode=mode), reference) / float(torch.linalg.norm(reference))
    assert ONE_PASS_FLOOR <= relative <= 2e-3


@pytest.mark.parametrize("mode", ["tf32tf32", "halfhalf"])
def test_bmm_and_broadcast_matmul(et, mode):
    a, b = rand(BATCH, M, K, seed=3), rand(BATCH, K, N, seed=4)
    assert_fp32_accurate(et.bmm(a, b, mode=mode), torch.bmm(a, b), a, b)
    a4, b3 = rand(2, 1, M, K, seed=5), rand(BATCH, K, N, seed=6)  # broadcasting stacks
    ours, theirs = et.matmul(a4, b3, mode=mode), torch.matmul(a4, b3)
    assert ours.shape == theirs.shape == (2, BATCH, M, N)
    for i in range(2):
        for j in range(BATCH):
            assert_fp32_accurate(ours[i, j], theirs[i, j], a4[i, 0], b3[j])


def test_k_zero_and_empty_products(et):
    poison_allocator(5, 4)
    assert torch.equal(et.mm(rand(5, 0), rand(0, 4)), torch.zeros(5, 4, device="cuda"))
    assert et.mm(rand(0, 3), rand(3, 4)).shape == (0, 4)
    assert torch.equal(et.bmm(rand(2, 5, 0), rand(2, 0, 4)), torch.zeros(2, 5, 4, device="cuda"))


def test_layouts_are_read_in_place_without_copies(et):
    b = rand(512, 64, seed=8)
    base = rand(1024, 768, seed=7)
    views = {"transposed": rand(512, 1024, seed=9).T, "row slice": base[100:612, :512],
             "column slice": base[:, 128:640], "transposed slice": base[:512, :].T[:, :512]}
    for name, a in views.items():
        reference = a.double() @ b.double()
        expected = et.mm(a.contiguous(), b)
        torch.cuda.synchronize()
        torch.cuda.reset_peak_memory_stats()
        before = torch.cuda.memory_allocated()
        c = et.mm(a, b)
        torch.cuda.synchronize()
        grown = torch.cuda.max_memory_allocated() - before
        # The call's own scratch (split-K partials) is allocated per call; a copy of a would come on top of it.
        plan = ecgemm.explain(a, b, mode=et.DEFAULT_MODE)
        scratch = int(dict(t.split("=", 1) for t in plan.split() if "=" in t)["workspace"])
        assert grown < scratch + a.numel() * 4, f"{name}: {grown} bytes allocated ({plan}): was a copied?"
        assert_fp32_accurate(c, a @ b, a, b)
        assert error(c, expected.double()) <= 2 * error(expected, reference)
    expanded = rand(1, 512, seed=10).expand(256, 512)  # stride 0: the one layout copied
    assert_fp32_accurate(et.mm(expanded, b), expanded @ b, expanded, b)


def test_runs_on_pytorchs_current_stream(et):
    src, b = rand(2048, 2048, seed=30), rand(2048, 256, seed=11)
    expected = et.mm(src, b)
    a = torch.full_like(src, float("nan"))
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        torch.cuda._sleep(100_000_000)  # the copy lands late on `side`: ecgemm must wait
        a.copy_(src)
        c = et.mm(a, b)
    side.synchronize()
    assert torch.equal(c, expected)


# --- gradients against float64 autograd ---------------------------------------------------

def gradients(fn, inputs, seed_out):
    out = fn(*inputs)
    g = rand(*out.shape, seed=seed_out).to(out.dtype)
    return torch.autograd.grad(out, inputs, g)


PRODUCTS = {
    "mm": (lambda et, m: lambda a, b: et.mm(a, b, mode=m), ((M, K), (K, N))),
    "bmm": (lambda et, m: lambda a, b: et.bmm(a, b, mode=m), ((BATCH, M, K), (BATCH, K, N))),
    "matmul": (lambda et, m: lambda a, b: et.matmul(a, b, mode=m), ((BATCH, M, K), (K, N))),
    "linear": (lambda et, m: lambda a, b: et.linear(a, b.mT, mode=m), ((BATCH, M, K), (K, N))),
}
TORCH_PRODUCTS = {"mm": torch.mm, "bmm": torch.bmm, "matmul": torch.matmul,
                  "linear": lambda a, b: F.linear(a, b.mT)}


@pytest.mark.parametrize("mode", ["tf32tf32", "halfhalf"])
@pytest.mark.parametrize("product", PRODUCTS)
def test_gradients_match_float64_autograd(et, product, mode):
    make, (a_shape, b_shape) = PRODUCTS[product]
    a, b = rand(*a_shape, seed=12, requires_grad=True), rand(*b_shape, seed=13, requires_grad=True)
    ours = gradients(make(et, mode), (a, b), 14)
    theirs = gradients(TORCH_PRODUCTS[product], (a, b), 14)
    a64, b64 = (t.detach().double().requires_grad_() for t in (a, b))
    exact = gradients(TORCH_PRODUCTS[product], (a64, b64), 14)
    dc = rand(*(TORCH_PRODUCTS[product](a, b)).shape, seed=14)
    # dA = dC·Bᵀ (contraction over n) and dB = Aᵀ·dC (contraction over the rows of A).
    factors = ((dc.reshape(-1, dc.shape[-1]), b.detach().mT.reshape(-1, b.shape[-2])),
               (a.detach().reshape(-1, a.shape[-1]).T, dc.reshape(-1, dc.shape[-1])))
    for name, mine, cublas, ref, (x, y) in zip("ab", ours, theirs, exact, factors):
        bound = accepted_error(error(cublas, ref), x.cpu().numpy(), y[:x.shape[1]].cpu().numpy(),
                               None, 1.0, 0.0)
        assert error(mine, ref) <= bound, (name, error(mine, ref), error(cublas, ref))


def test_double_backward_uses_the_operators(et):
    a, b = rand(64, 32, seed=15, requires_grad=True), rand(32, 16, seed=16, requires_grad=True)
    (ga,) = torch.autograd.grad(et.mm(a, b).square().sum(), a, create_graph=True)
    (gb,) = torch.autograd.grad(ga.sum(), b)
    a64, b64 = a.detach().double().requires_grad_(), b.detach().double().requires_grad_()
    (ga64,) = torch.autograd.grad((a64 @ b64).square().sum(), a64, create_graph=True)
    (gb64,) = torch.autograd.grad(ga64.sum(), b64)
    assert error(gb, gb64) <= 1e-5 * float(torch.linalg.norm(gb64))


def test_opcheck(et):
    a, b = rand(33, 17, seed=17, requires_grad=True), rand(17, 9, seed=18, requires_grad=True)
    torch.library.opcheck(torch.ops.ecgemm.mm.default, (a, b, "tf32tf32"))
    a3, b3 = rand(2, 33, 17, seed=19, requires_grad=True), rand(2, 17, 9, seed=20)
    torch.library.opcheck(torch.ops.ecgemm.bmm.default, (a3, b3, "halfhalf"))


# --- torch.compile (Inductor) ---------------------------------------------------------------

def test_compile_fullgraph_with_inductor_equals_eager(et):
    def step(a, b, w):
        return (torch.relu(et.mm(a, b, mode="halfhalf")) * 2 + 1) @ w

    a, b = rand(256, 128, seed=21, requires_grad=True), rand(128, 64, seed=22, requires_grad=True)
    w = rand(64, 32, seed=23)
    compiled = torch.compile(step, fullgraph=True)
    with et.enabled(mode="tf32tf32"):
        eager = step(a, b, w)
        got = compiled(a, b, w)
    torch.testing.assert_close(got, eager, rtol=1e-6, atol=1e-6)
    g_eager = torch.autograd.grad(eager.sum(), (a, b))
    g_got = torch.autograd.grad(got.sum(), (a, b))
    for x, y in zip(g_got, g_eager):
        torch.testing.assert_close(x, y, rtol=1e-6, atol=1e-6)
    torch._dynamo.reset()


# --- the TorchFunctionMode and Linear ---------------------------------------------------------

def test_enabled_routes_products_and_leaves_other_dtypes(et):
    x, w = rand(M, K, seed=24), rand(N, K, seed=25)
    expected = et.mm(x, w.T, mode="halfhalf")
    with et.enabled(mode="halfhalf"):
        results = [x @ w.T, torch.mm(x, w.T), torch.matmul(x, w.T), F.linear(x, w),
                   x.mm(w.T), torch.bmm(x[None], w.T[None])[0]]
        x64 = x.double() @ w.double().T
    for r in results:
        assert torch.equal(r, expected)
    assert torch.equal(x64, x.double() @ w.double().T)
    assert not torch.equal(expected, torch.mm(x, w.T))  # not cuBLAS's bits


def test_linear_trains_like_float64(et):
    torch.manual_seed(0)
    ours = torch.nn.Sequential(et.Linear(K, 256, device="cuda", mode="tf32tf32"), torch.nn.GELU(),
                               et.Linear(256, 10, device="cuda"))
    exact = torch.nn.Sequential(torch.nn.Linear(K, 256), torch.nn.GELU(),
                                torch.nn.Linear(256, 10)).cuda().double()
    exact.load_state_dict(ours.state_dict())
    x, target = rand(512, K, seed=26), rand(512, 10, seed=27)
    losses = [train(model, x.to(dtype), target.to(dtype), steps=5, lr=0.05)[0][-1]
              for model, dtype in ((ours, torch.float32), (exact, torch.float64))]
    assert abs(losses[0] - losses[1]) <= 1e-5 * abs(losses[1]), losses


def test_linear_loads_nn_linear_state_dicts(et):
    theirs = torch.nn.Linear(K, N, bias=False, device="cuda")
    ours = et.Linear(K, N, bias=False, device="cuda")
    ours.load_state_dict(theirs.state_dict())
    x = rand(M, K, seed=28)
    with torch.no_grad():
        assert_fp32_accurate(ours(x), theirs(x), x, theirs.weight.T)
    assert ours.mode == ecgemm.MODES[0]
