"""One handle on many streams, CUDA graphs and scratch memory (docs/memory.md).

Every result must equal, bit for bit, the same call made alone. Each call takes its
scratch on its own stream (the library's pool, the user's allocator, or graph memory
under capture); a library whose handle owns one workspace fails these tests: a call on
another stream overwrites the planes or partials an earlier call still reads, and a graph
replayed after that workspace grew reads freed memory.
"""
import ctypes
import os
import re
import threading

import pytest

from _capi import MODES, OP, STATUS
from test_c_abi_gpu import lib, rel, torch  # noqa: F401  (skips without a GPU)

import ecgemm

pytestmark = pytest.mark.gpu
NAN = float("nan")
STREAMS = 4
FAMILIES = {"planes", "fused_wgmma", "fused_mma", "simt", "gemv"}

# (mode, transa, transb, m, n, k, batch, pointer arrays): every family, every mode, the
# plans with scratch (split planes, split-K partials, AUTO's scales) and some without.
CASES = [
    ("tf32tf32", "N", "N", 2048, 2048, 2048, 1, False),
    ("halfhalf", "T", "N", 1536, 1536, 1536, 1, False),
    ("auto", "N", "T", 1536, 1536, 1536, 1, False),
    ("fp16", "N", "N", 1024, 768, 1280, 1, False),
    ("tf32", "T", "T", 768, 1024, 512, 1, False),
    ("markidis", "N", "N", 1024, 256, 4096, 1, False),
    ("tf32tf32", "N", "N", 48, 4096, 1024, 1, False),
    ("tf32", "N", "N", 16, 2048, 4096, 1, False),
    ("auto", "T", "N", 4096, 48, 4096, 1, False),
    ("halfhalf", "N", "N", 256, 256, 256, 1, False),
    ("tf32tf32", "T", "N", 128, 128, 16384, 1, False),
    ("halfhalf", "N", "T", 64, 64, 65536, 1, False),
    ("fp32", "N", "N", 1024, 1024, 1024, 1, False),
    ("fp32", "T", "N", 64, 64, 8192, 1, False),
    ("tf32tf32", "N", "N", 1, 8192, 8192, 1, False),
    ("halfhalf", "N", "N", 1, 3, 1 << 19, 1, False),  # gemv split across CTAs (partials)
    ("auto", "T", "N", 4096, 2, 4096, 1, False),
    ("tf32tf32", "N", "N", 64, 64, 64, 512, False),
    ("halfhalf", "T", "N", 256, 256, 256, 32, False),
    ("auto", "N", "T", 96, 80, 128, 96, True),
    ("fp16", "N", "N", 512, 512, 512, 8, False),
]


def case_id(case):
    mode, ta, tb, m, n, k, batch, arrays = case
    form = "" if batch == 1 else f"-{batch}x{'arrays' if arrays else 'strided'}"
    return f"{mode}-{ta}{tb}-{m}x{k}x{n}{form}"


class Call:
    """One C call's operands (column-major, packed) and its output, with its own data."""

    def __init__(self, case, seed):
        self.mode, ta, tb, self.m, self.n, self.k, self.batch, self.arrays = case
        self.ta, self.tb = OP[ta], OP[tb]
        g = torch.Generator(device="cuda").manual_seed(seed)
        a_rows, a_cols = (self.m, self.k) if ta == "N" else (self.k, self.m)
        b_rows, b_cols = (self.k, self.n) if tb == "N" else (self.n, self.k)
        self.lda, self.ldb, self.ldc = a_rows, b_rows, self.m
        # Column-major items: a (batch, cols, rows) tensor holds rows x cols matrices.
        self.a = torch.rand(self.batch, a_cols, a_rows, device="cuda", generator=g) * 2 - 1
        self.b = torch.rand(self.batch, b_cols, b_rows, device="cuda", generator=g) * 2 - 1
        self.c = torch.full((self.batch, self.n, self.m), NAN, device="cuda")
        if self.arrays:
            self.pointers = torch.tensor(
                [[x.data_ptr() + x[0].numel() * 4 * z for z in range(self.batch)]
                 for x in (self.a, self.b, self.c)], dtype=torch.int64, device="cuda")

    def run(self, handle):
        one, zero = ctypes.c_float(1.0), ctypes.c_float(0.0)
        alpha, beta = ctypes.addressof(one), ctypes.addressof(zero)
        assert lib.ecgemm_set_mode(handle, MODES[self.mode]) == 0
        if self.arrays:
            p = self.pointers
            st = lib.ecgemm_sgemm_batched_64(handle, self.ta, self.tb, self.m, self.n, self.k, alpha,
                                             p[0].data_ptr(), self.lda, p[1].data_ptr(), self.ldb,
                                             beta, p[2].data_ptr(), self.ldc, self.batch)
        elif self.batch > 1:
            st = lib.ecgemm_sgemm_strided_batched_64(
                handle, self.ta, self.tb, self.m, self.n, self.k, alpha, self.a.data_ptr(),
                self.lda, self.a[0].numel(), self.b.data_ptr(), self.ldb, self.b[0].numel(), beta,
                self.c.data_ptr(), self.ldc, self.c[0].numel(), self.batch)
        else:
            st = lib.ecgemm_sgemm_64(handle, self.ta, self.tb, self.m, self.n, self.k, alpha,
                                     self.a.data_ptr(), self.lda, self.b.data_ptr(), self.ldb, beta,
                                     self.c.data_ptr(), self.ldc)
        assert st == STATUS["SUCCESS"], st

    def plan(self, handle):
        text = ctypes.create_string_buffer(256)
        assert lib.ecgemm_set_mode(handle, MODES[self.mode]) == 0
        assert lib.ecgemm_internal_plan_string(handle, self.ta, self.tb, self.m, self.n, self.k,
                                               self.lda, self.ldb, self.ldc, self.batch,
                                               int(self.arrays), text, 256) == 0
        return text.value.decode()


def bits(x):
    return x.contiguous().view(torch.int32)


def sleep_all(streams, cycles=2_000_000):
    """Hold every stream for the same time so that the calls queued next start together."""
    for s in streams:
        with torch.cuda.stream(s):
            torch.cuda._sleep(cycles)


@pytest.fixture()
def handle():
    h = ctypes.c_void_p()
    assert lib.ecgemm_create(ctypes.byref(h)) == STATUS["SUCCESS"]
    yield h
    assert lib.ecgemm_destroy(h) == STATUS["SUCCESS"]


def test_the_cases_cover_every_family_and_scratch(handle):
    plans = [Call(case, 0).plan(handle) for case in CASES]
    families = {re.search(r"family=(\w+)", p).group(1) for p in plans}
    assert families == FAMILIES, plans
    with_scratch = {re.search(r"family=(\w+)", p).group(1)
                    for p in plans if int(re.search(r"workspace=(\d+)", p).group(1)) > 0}
    assert {"planes", "fused_wgmma", "fused_mma", "simt", "gemv"} <= with_scratch, plans


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_one_handle_on_four_streams_matches_the_calls_made_alone(handle, case):
    calls = [Call(case, seed) for seed in range(STREAMS)]
    alone = []
    for call in calls:
        call.run(handle)
        torch.cuda.synchronize()
        alone.append(bits(call.c).clone())
    streams = [torch.cuda.Stream() for _ in range(STREAMS)]
    try:
        for _ in range(3):
            for call in calls:
                call.c.fill_(NAN)
            torch.cuda.synchronize()
            sleep_all(streams)
            for call, stream in zip(calls, streams):  # PyTorch's pattern: switch, call, switch...
                assert lib.ecgemm_set_stream(handle, stream.cuda_stream) == 0
                call.run(handle)
            torch.cuda.synchronize()
            for call, expected in zip(calls, alone):
                assert torch.equal(bits(call.c), expected)
    finally:
        lib.ecgemm_set_stream(handle, None)


def test_handles_of_many_threads_on_their_own_streams(handle):
    """Threads with their own handles and streams, calls of every family at once."""
    cases = CASES[:: 2]
    calls = [Call(case, 10 + i) for i, case in enumerate(cases)]
    alone = []
    for call in calls:
        call.run(handle)
        torch.cuda.synchronize()
        alone.append(bits(call.c).clone())
        call.c.fill_(NAN)
    torch.cuda.synchronize()
    errors = []

    def work(call):
        h = ctypes.c_void_p()
        try:
            assert lib.ecgemm_create(ctypes.byref(h)) == 0
            stream = torch.cuda.Stream()
            assert lib.ecgemm_set_stream(h, stream.cuda_stream) == 0
            for _ in range(3):
                call.run(h)
            stream.synchronize()
        except BaseException as error:  # reported below, in the test's thread
            errors.append(error)
        finally:
            lib.ecgemm_destroy(h)

    threads = [threading.Thread(target=work, args=(call,)) for call in calls]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    for call, expected in zip(calls, alone):
        assert torch.equal(bits(call.c), expected)


# --- the Python API on PyTorch and CuPy streams -----------------------------------------

@pytest.mark.parametrize("mode", ["tf32tf32", "halfhalf", "auto"])
def test_matmul_on_two_torch_streams_matches_the_calls_made_alone(mode):
    n = 2048
    g = torch.Generator(device="cuda").manual_seed(3)
    a = [torch.rand(n, n, device="cuda", generator=g) for _ in range(2)]
    b = [torch.rand(n, n, device="cuda", generator=g) for _ in range(2)]
    alone = [bits(ecgemm.matmul(x, y, mode=mode)) for x, y in zip(a, b)]
    torch.cuda.synchronize()
    s1, s2 = torch.cuda.Stream(), torch.cuda.Stream()
    for _ in range(10):
        sleep_all((s1, s2))
        with torch.cuda.stream(s1):
            c1 = ecgemm.matmul(a[0], b[0], mode=mode)
        with torch.cuda.stream(s2):
            c2 = ecgemm.matmul(a[1], b[1], mode=mode)
        torch.cuda.synchronize()
        assert torch.equal(bits(c1), alone[0]) and torch.equal(bits(c2), alone[1])


@pytest.mark.parametrize("mode", ["tf32tf32", "halfhalf"])
def test_one_ecgemm_handle_with_stream_arguments(mode):
    """An explicit Handle and stream=, batched (strided and pointer-array) and 2-D calls."""
    g = torch.Generator(device="cuda").manual_seed(4)
    shapes = [((1536, 1536), (1536, 1536)), ((24, 96, 200), (24, 200, 80)),
              ((64, 1, 128, 300), (1, 6, 300, 96))]  # the last broadcasts: pointer arrays
    ops = [(torch.rand(sa, device="cuda", generator=g), torch.rand(sb, device="cuda", generator=g))
           for sa, sb in shapes]
    with ecgemm.Handle(mode=mode) as h:
        alone = [bits(ecgemm.matmul(x, y, handle=h)) for x, y in ops]
        torch.cuda.synchronize()
        streams = [torch.cuda.Stream() for _ in ops]
        for _ in range(5):
            sleep_all(streams)
            outs = [ecgemm.matmul(x, y, handle=h, stream=s) for (x, y), s in zip(ops, streams)]
            torch.cuda.synchronize()
            for out, expected in zip(outs, alone):
                assert torch.equal(bits(out), expected)


def test_matmul_on_two_cupy_streams_matches_the_calls_made_alone():
    cp = pytest.importorskip("cupy")
    n = 2048
    rs = cp.random.RandomState(5)
    a = [rs.rand(n, n, dtype=cp.float32) for _ in range(2)]
    b = [rs.rand(n, n, dtype=cp.float32) for _ in range(2)]
    alone = [ecgemm.matmul(x, y, mode="halfhalf").view(cp.int32).copy() for x, y in zip(a, b)]
    cp.cuda.Device().synchronize()
    s1, s2 = cp.cuda.Stream(non_blocking=True), cp.cuda.Stream(non_blocking=True)
    for _ in range(10):
        with s1:
            c1 = ecgemm.matmul(a[0], b[0], mode="halfhalf")
        with s2:
            c2 = ecgemm.matmul(a[1], b[1], mode="halfhalf")
        cp.cuda.Device().synchronize()
        assert (c1.view(cp.int32) == alone[0]).all() and (c2.view(cp.int32) == alone[1]).all()


# --- a call that reads the call before it ---------------------------------------------------

# The first call, X = A·B with k = 4096 on fused_mma's 32 tile unsplit, is one kernel of a few
# CTAs that signals its dependents at entry (common/launch.cuh) and then runs for microseconds;
# the second call, on the family under test, has X as an operand. Its first kernel, launched as
# a programmatic dependent, is scheduled while X is still being computed: it reads X poisoned or
# half written unless it waits before touching memory. (family, X's side in the second
# product, X's m and n, the second product's other side)
PRODUCER, PRODUCER_K = "fused_mma:32/unsplit", 4096
CHAINS = [
    ("planes", "a", 64, 64, 512),
    ("fused_wgmma", "a", 64, 64, 256),
    ("fused_mma", "a", 64, 64, 80),
    ("fused_mma", "b", 64, 64, 700),
    ("simt", "a", 64, 64, 64),
    ("simt", "b", 33, 17, 9),
    ("gemv", "b", 512, 1, 2000),  # a matrix times the vector X
    ("gemv", "a", 1, 300, 900),   # the row X times a matrix
]


@pytest.mark.parametrize("family,side,m,n,other", CHAINS, ids=lambda v: str(v))
def test_a_call_reads_the_output_of_the_call_before_it(monkeypatch, family, side, m, n, other):
    mode = "tf32tf32"
    g = torch.Generator(device="cuda").manual_seed(m + n + other)
    a = torch.rand(m, PRODUCER_K, device="cuda", generator=g) * 2 - 1
    b = torch.rand(PRODUCER_K, n, device="cuda", generator=g) * 2 - 1
    w = torch.rand(*((n, other) if side == "a" else (other, m)), device="cuda", generator=g) * 2 - 1
    x = torch.empty(m, n, device="cuda")
    y = torch.empty(*((m, other) if side == "a" else (other, n)), device="cuda")
    second = (x, w) if side == "a" else (w, x)

    def both(apart=False):
        monkeypatch.setenv("ECGEMM_FAMILY", PRODUCER)  # read per call: each call has its own pin
        ecgemm.matmul(a, b, out=x, mode=mode)
        if apart:
            torch.cuda.synchronize()
        monkeypatch.setenv("ECGEMM_FAMILY", family)
        ecgemm.matmul(*second, out=y, mode=mode)

    monkeypatch.setenv("ECGEMM_FAMILY", PRODUCER)
    assert "splits=1 " in ecgemm.explain(a, b, mode=mode), ecgemm.explain(a, b, mode=mode)
    monkeypatch.setenv("ECGEMM_FAMILY", family)
    assert f"family={family}" in ecgemm.explain(*second, mode=mode), ecgemm.explain(*second, mode=mode)
    both(apart=True)
    torch.cuda.synchronize()
    alone = bits(y).clone()
    for _ in range(5):
        x.fill_(NAN)
        y.fill_(NAN)
        torch.cuda._sleep(1_000_000)  # the two calls queue up behind it
        both()
        torch.cuda.synchronize()
        assert torch.equal(bits(y), alone)


# --- CUDA graphs ----------------------------------------------------------------------------

@pytest.mark.parametrize("mode", ["tf32tf32", "halfhalf", "auto"])
def test_graph_replayed_after_a_larger_eager_call_and_a_release(mode):
    """The capture's scratch is the graph's: a larger eager call in between, and the pool's
    idle memory given back, change nothing for the replay."""
    n = 1024
    a = torch.rand(n, n, device="cuda")
    b = torch.rand(n, n, device="cuda")
    stream = torch.cuda.Stream()
    with torch.cuda.stream(stream):
        ecgemm.matmul(a, b, mode=mode)  # warm-up: torch's graph pool, module loads
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph, stream=stream):
            c = ecgemm.matmul(a, b, mode=mode)
    big = torch.rand(8192, 8192, device="cuda")
    ecgemm.matmul(big, big, mode=mode)  # needs far more scratch than the capture had
    torch.cuda.synchronize()
    for seed in (7, 8):
        if seed == 8:  # and with the pool's idle memory given back
            ecgemm._ecgemm.default_handle(0).release_workspace()
        g = torch.Generator(device="cuda").manual_seed(seed)
        a.copy_(torch.rand(n, n, device="cuda", generator=g))
        c.fill_(NAN)
        graph.replay()
        torch.cuda.synchronize()
        assert torch.equal(bits(c), bits(ecgemm.matmul(a, b, mode=mode)))


def test_capture_on_a_handle_that_never_had_scratch():
    with ecgemm.Handle(mode="tf32tf32") as h:
        h.release_workspace()
        a = torch.rand(2048, 2048, device="cuda")
        b = torch.rand(2048, 2048, device="cuda")
        stream = torch.cuda.Stream()
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.stream(stream), torch.cuda.graph(graph, stream=stream):
            c = ecgemm.matmul(a, b, handle=h)
        c.fill_(NAN)
        graph.replay()
        torch.cuda.synchronize()
        assert torch.equal(bits(c), bits(ecgemm.matmul(a, b, handle=h)))


def test_torch_compile_reduce_overhead_with_changing_shapes():
    et = pytest.importorskip("ecgemm.torch")

    def layer(x, w):
        return et.mm(x, w, mode="halfhalf").relu()

    compiled = torch.compile(layer, mode="reduce-overhead")
    g = torch.Generator(device="cuda").manual_seed(9)
    for m, k, n in [(512, 256, 384), (1024, 2048, 512), (512, 256, 384), (2048, 1024, 1024),
                    (1024, 2048, 512)]:
        x = torch.rand(m, k, device="cuda", generator=g)
        w = torch.rand(k, n, device="cuda", generator=g)
        expected = layer(x, w)
        for _ in range(3):  # warm-up, record, replay
            got = compiled(x, w)
        torch.cuda.synchronize()
        assert torch.equal(bits(got), bits(expected))


# --- scratch memory: limit, release, query, the allocator hook -------------------------------

def _workspace(plan):
    return int(re.search(r"workspace=(\d+)", plan).group(1))


@pytest.mark.parametrize("limit", [1, 1 << 20, 32 << 20])
def test_workspace_limit_bounds_every_plan_and_keeps_fp32_accuracy(limit):
    g = torch.Generator(device="cuda").manual_seed(11)
    with ecgemm.Handle() as h:
        h.workspace_limit = limit
        assert h.workspace_limit == limit
        for mode, ta, tb, m, n, k, batch, arrays in CASES:
            if mode not in ("tf32tf32", "halfhalf", "auto", "fp32") or batch > 1:
                continue
            a = torch.rand(m, k, device="cuda", generator=g) * 2 - 1
            b = torch.rand(k, n, device="cuda", generator=g) * 2 - 1
            assert _workspace(ecgemm.explain(a, b, mode=mode, handle=h)) <= limit
            c = ecgemm.matmul(a, b, mode=mode, handle=h)
            ref = a.double() @ b.double()
            torch.backends.cuda.matmul.allow_tf32 = False
            assert rel(c, ref) <= max(2 * rel(a @ b, ref), 2 ** -22), (mode, m, k, n)


def test_release_workspace_gives_idle_memory_back():
    with ecgemm.Handle() as h:
        a = torch.rand(4096, 4096, device="cuda")
        ecgemm.matmul(a, a, handle=h)
        torch.cuda.synchronize()
        assert ecgemm._workspace_usage(h.device)["reserved"] > 0
        h.release_workspace()
        assert ecgemm._workspace_usage(h.device)["reserved"] == 0


@pytest.mark.parametrize("limit", [0, 1 << 20])
def test_the_workspace_query_is_the_plan_the_call_runs(handle, limit):
    """ecgemm_get_workspace_size_64 against the plan itself, and against what the pool
    saw the call take."""
    assert lib.ecgemm_set_workspace_limit(handle, limit) == 0
    for case in CASES:
        call = Call(case, 1)
        size = ctypes.c_size_t()
        assert lib.ecgemm_set_mode(handle, MODES[call.mode]) == 0
        assert lib.ecgemm_get_workspace_size_64(handle, call.ta, call.tb, call.m, call.n, call.k,
                                                call.lda, call.ldb, call.ldc, call.batch,
                                                int(call.arrays), ctypes.byref(size)) == 0
        assert size.value == _workspace(call.plan(handle)), case
        if limit:
            assert size.value <= limit
        torch.cuda.synchronize()
        ecgemm._workspace_usage(0, reset_high=True)
        call.run(handle)
        torch.cuda.synchronize()
        taken = ecgemm._workspace_usage(0)["used_high"]
        assert taken >= size.value and (size.value == 0) == (taken == 0), (case, taken, size.value)


def test_torch_ops_take_scratch_from_pytorch_s_caching_allocator():
    et = pytest.importorskip("ecgemm.torch")
    a = torch.rand(2048, 2048, device="cuda")
    b = torch.rand(2048, 2048, device="cuda")
    scratch = _workspace(ecgemm.explain(a, b, mode="tf32tf32"))
    assert scratch > 0
    torch.cuda.synchronize()
    ecgemm._workspace_usage(0, reset_high=True)
    base = torch.cuda.memory_allocated()
    torch.cuda.reset_peak_memory_stats()
    c = et.mm(a, b, mode="tf32tf32")
    torch.cuda.synchronize()
    assert torch.cuda.max_memory_allocated() - base >= scratch + c.numel() * 4
    assert ecgemm._workspace_usage(0)["used_high"] == 0  # the library's pool was not used
    assert torch.equal(bits(c), bits(ecgemm.matmul(a, b, mode="tf32tf32")))


class FailingAllocator:
    def alloc(self, size, stream):
        raise MemoryError(f"no {size} bytes today")

    def free(self, ptr, size, stream):
        raise AssertionError("free without alloc")


def test_an_allocator_failure_is_raised_and_leaves_c_untouched():
    a = torch.rand(2048, 2048, device="cuda")
    out = torch.full((2048, 2048), NAN, device="cuda")
    with ecgemm.Handle() as h:
        h.set_allocator(FailingAllocator())
        with pytest.raises(ecgemm.EcgemmError, match="ALLOC_FAILED") as info:
            ecgemm.matmul(a, a, out=out, handle=h)
        assert isinstance(info.value.__cause__, MemoryError)
        torch.cuda.synchronize()
        assert torch.isnan(out).all()
        h.set_allocator(None)  # the pool again
        ecgemm.matmul(a, a, out=out, handle=h)
        torch.cuda.synchronize()
        assert not torch.isnan(out).any()


def test_short_of_memory_the_call_takes_a_plan_that_fits():
    """With the device nearly full, a call whose plan needs more scratch than is free is
    retried with a limit the free memory holds: slower, as accurate, no error."""
    if int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1")) > 1:
        # It fills the GPU's free memory, so other workers' allocations would fail beside it.
        pytest.skip("fills the GPU's free memory; run without pytest-xdist's -n")
    n = 4096
    g = torch.Generator(device="cuda").manual_seed(12)
    a = torch.rand(n, n, device="cuda", generator=g) * 2 - 1
    b = torch.rand(n, n, device="cuda", generator=g) * 2 - 1
    out = torch.full((n, n), NAN, device="cuda")
    assert _workspace(ecgemm.explain(a, b)) > 200 << 20
    ref = a.double() @ b.double()
    torch.cuda.synchronize()
    ecgemm._ecgemm.default_handle(0).release_workspace()
    torch.cuda.empty_cache()
    free, _ = torch.cuda.mem_get_info()
    filler = torch.empty(free - (64 << 20), dtype=torch.uint8, device="cuda")
    try:
        ecgemm.matmul(a, b, out=out)
        torch.cuda.synchronize()
    finally:
        del filler
        torch.cuda.empty_cache()
    assert rel(out, ref) < 1e-6
