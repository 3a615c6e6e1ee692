"""Every mode's TFLOP/s and residual against cuBLAS SGEMM on a few shapes, through the C ABI.

The short loop used while tuning kernels (the full comparison is bench/): CUDA events around
each call, median of 10; cuBLAS SGEMM (PyTorch, TF32 off) on the same operands in the same
process; residual against an FP64 product. --batched adds strided batches against torch.bmm.
A family pin in the environment (ECGEMM_FAMILY=fused_mma, say) applies to every call. The host cost
of a call is bench.overhead's to measure.
"""
import ctypes

from tools import _common  # noqa: F401  (tests/ on sys.path)
from _capi import MODES, load  # noqa: E402


def time_ms(fn, reps=10):
    import torch
    fn()
    torch.cuda.synchronize()
    start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    times = []
    for _ in range(reps):
        start.record()
        fn()
        stop.record()
        stop.synchronize()
        times.append(start.elapsed_time(stop))
    return sorted(times)[len(times) // 2]


def probe_batched(lib, h, count, m, k, n, modes):
    """A strided batch of count products (m x k) @ (k x n) against torch.bmm (cuBLAS's
    strided-batched SGEMM, TF32 off), median of 10 event-timed calls, residuals vs FP64."""
    import torch
    a = torch.rand(count, m, k, device="cuda") * 2 - 1
    b = torch.rand(count, k, n, device="cuda") * 2 - 1
    ref = a.double() @ b.double()
    flops = 2.0 * count * m * n * k
    torch.backends.cuda.matmul.allow_tf32 = False
    c_ref = torch.empty(count, m, n, device="cuda")
    t_bmm = time_ms(lambda: torch.bmm(a, b, out=c_ref))
    res_bmm = (torch.linalg.norm(c_ref.double() - ref) / torch.linalg.norm(ref)).item()
    label = f"{count}x({m}x{k}x{n})"
    print(f"{label:>18} {'torch.bmm':>10} {t_bmm:9.3f} {flops / t_bmm / 1e9:8.1f} {1.0:8.2f} {res_bmm:10.3e}")
    one, zero = ctypes.c_float(1.0), ctypes.c_float(0.0)
    for mode in modes:
        lib.ecgemm_set_mode(h, MODES[mode])
        c = torch.full_like(c_ref, float("nan"))
        # row-major torch stacks as column-major: C_z^T (n x m) = B_z^T A_z^T
        call = lambda: lib.ecgemm_sgemm_strided_batched(
            h, 0, 0, n, m, k, ctypes.addressof(one), b.data_ptr(), n, k * n, a.data_ptr(), k, m * k,
            ctypes.addressof(zero), c.data_ptr(), n, m * n, count)
        assert call() == 0
        t = time_ms(call)
        res = (torch.linalg.norm(c.double() - ref) / torch.linalg.norm(ref)).item()
        print(f"{label:>18} {mode:>10} {t:9.3f} {flops / t / 1e9:8.1f} {t_bmm / t:8.2f} {res:10.3e}")


def parse_shapes(args):
    """(label, m, k, n) per problem: --sizes gives squares, --shapes 'm,k,n;...' any shape."""
    if args.shapes:
        shapes = [tuple(map(int, s.split(","))) for s in args.shapes.split(";") if s]
        return [(f"{m}x{k}x{n}", m, k, n) for m, k, n in shapes]
    return [(str(n), n, n, n) for n in map(int, args.sizes.split(","))]


def add_arguments(p):
    p.add_argument("--sizes", default="1024,4096,8192", help="squares (default 1024,4096,8192)")
    p.add_argument("--shapes", default="", help="'m,k,n;m,k,n' (A is m x k); replaces --sizes")
    p.add_argument("--modes", default=",".join(MODES), help="comma-separated (default: every mode)")
    p.add_argument("--batched", default="", help="'count,m,k,n;...': strided batches against torch.bmm")


def run(args):
    import torch
    lib = load()
    unknown = [m for m in args.modes.split(",") if m not in MODES]
    if unknown:
        raise SystemExit(f"probe: unknown mode(s) {', '.join(unknown)}; known: {', '.join(MODES)}")
    h = ctypes.c_void_p()
    assert lib.ecgemm_create(ctypes.byref(h)) == 0
    stream = torch.cuda.current_stream().cuda_stream
    lib.ecgemm_set_stream(h, stream)
    one, zero = ctypes.c_float(1.0), ctypes.c_float(0.0)
    problems = parse_shapes(args)
    w = max(6, *(len(label) for label, *_ in problems))
    print(f"{torch.cuda.get_device_name()}  torch {torch.__version__}")
    head = "m x k x n" if args.shapes else "n"
    print(f"{head:>{w}} {'method':>10} {'ms':>9} {'TFLOP/s':>8} {'x SGEMM':>8} {'residual':>10}")
    for label, m, k, n in problems:
        a = torch.rand(m, k, device="cuda") * 2 - 1
        b = torch.rand(k, n, device="cuda") * 2 - 1
        ref = a.double() @ b.double()
        flops = 2.0 * m * n * k
        torch.backends.cuda.matmul.allow_tf32 = False
        c_ref = torch.empty(m, n, device="cuda")
        t_sgemm = time_ms(lambda: torch.matmul(a, b, out=c_ref))
        res_sgemm = (torch.linalg.norm(c_ref.double() - ref) / torch.linalg.norm(ref)).item()
        print(f"{label:>{w}} {'cublas':>10} {t_sgemm:9.3f} {flops / t_sgemm / 1e9:8.1f} {1.0:8.2f} {res_sgemm:10.3e}")
        for mode in args.modes.split(","):
            lib.ecgemm_set_mode(h, MODES[mode])
            c = torch.full_like(c_ref, float("nan"))
            # column-major view: C^T (n x m) = B^T A^T on row-major torch storage
            call = lambda: lib.ecgemm_sgemm(h, 0, 0, n, m, k, ctypes.addressof(one), b.data_ptr(), n,
                                            a.data_ptr(), k, ctypes.addressof(zero), c.data_ptr(), n)
            st = call()
            assert st == 0, st
            t = time_ms(call)
            res = (torch.linalg.norm(c.double() - ref) / torch.linalg.norm(ref)).item()
            print(f"{label:>{w}} {mode:>10} {t:9.3f} {flops / t / 1e9:8.1f} {t_sgemm / t:8.2f} {res:10.3e}")
        del a, b, ref, c_ref
    for spec in filter(None, args.batched.split(";")):
        probe_batched(lib, h, *map(int, spec.split(",")), modes=args.modes.split(","))
    lib.ecgemm_destroy(h)
    return 0
