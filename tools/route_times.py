"""GPU time of each route on given shapes, with the kernels each launches, beside cuBLAS SGEMM.

Calls go through ecgemm.matmul on PyTorch tensors, as users make them. The queue is
prefilled with a GPU sleep (bench.timing.gpu_ms), so the host's cost per call drops out
and small products show their GPU time. A route is the planner's choice ("default") or a
kernel family pinned (tools/_common.py); --env adds the default route under other values
of any variable (ECGEMM_SERIAL_LAUNCHES=1, say).
--layouts reads a and/or b as transposed views and --pad gives their rows a longer stride,
so the split pass and the fused kernels' loaders are timed on every layout.
Shapes are m,k,n (A is m x k).
"""
import os

from tools._common import FAMILY_PINS, PIN_VARIABLES

# "default" is the planner's choice; the others pin a family (where it can run the call).
ROUTES = {"default": {}, **FAMILY_PINS}
LAYOUTS = ("NN", "TN", "NT", "TT")  # T: the operand is the transpose of a contiguous tensor


def kernels(torch, call):
    """'<us> <kernel>; ...' per kernel of one call (PyTorch profiler, mean of 10 calls)."""
    from torch.profiler import ProfilerActivity, profile

    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(10):
            call()
        torch.cuda.synchronize()
    rows = [(e.device_time_total / 10, e.key) for e in prof.key_averages() if getattr(e, "device_time_total", 0)]
    return "; ".join(f"{us:.1f} {key[:48]}" for us, key in sorted(rows, reverse=True))


def operand(torch, rows, cols, transposed, pad):
    """A rows x cols float32 CUDA view: row stride cols + pad, or the transpose of such a view."""
    shape = (cols, rows) if transposed else (rows, cols)
    base = torch.rand(shape[0], shape[1] + pad, device="cuda") * 2 - 1
    view = base[:, :shape[1]]
    return view.T if transposed else view


def add_arguments(p):
    p.add_argument("--shapes", default="256,256,256;384,384,384;512,512,512;768,768,768;1024,1024,1024",
                   help="'m,k,n;...' (A is m x k)")
    p.add_argument("--modes", default="tf32tf32,halfhalf", help="comma-separated (default tf32tf32,halfhalf)")
    p.add_argument("--routes", default="default,fused_mma,planes,fused_wgmma",
                   help=f"comma-separated: {', '.join(ROUTES)}")
    p.add_argument("--env", default="", help="NAME=v1,v2: also time the default route under each value")
    p.add_argument("--layouts", default="NN", help=f"comma-separated: {', '.join(LAYOUTS)} (default NN)")
    p.add_argument("--pad", type=int, default=0, help="extra floats per operand row (e.g. 1: unaligned rows)")


def _list(text, known, what):
    items = [s.strip() for s in text.split(",") if s.strip()]
    unknown = [s for s in items if s not in known]
    if not items or unknown:
        raise SystemExit(f"route-times: unknown {what} {', '.join(unknown) or '(none given)'}; "
                         f"known: {', '.join(known)}")
    return items


def run(args):
    import torch

    import ecgemm
    from bench.timing import gpu_ms

    variants = [(r, ROUTES[r]) for r in _list(args.routes, ROUTES, "route")]
    if args.env:
        name, _, values = args.env.partition("=")
        if not name or not values:
            raise SystemExit(f"route-times: --env takes NAME=v1,v2; got {args.env!r}")
        variants += [(f"{name}={v}", {name: v}) for v in values.split(",")]
    layouts = _list(args.layouts, LAYOUTS, "layout")
    modes = _list(args.modes, ecgemm.MODES, "mode")
    if args.pad < 0:
        raise SystemExit("route-times: --pad must be >= 0")
    torch.backends.cuda.matmul.allow_tf32 = False
    for var in PIN_VARIABLES:  # pins of the caller would blur "default"
        os.environ.pop(var, None)
    for spec in filter(None, args.shapes.split(";")):
        m, k, n = map(int, spec.split(","))
        for layout in layouts:
            a = operand(torch, m, k, layout[0] == "T", args.pad)
            b = operand(torch, k, n, layout[1] == "T", args.pad)
            ref = a.double() @ b.double()
            out = torch.empty(m, n, device="cuda")
            t_ref = gpu_ms(torch, lambda: torch.matmul(a, b, out=out), batches=15, calls=20)
            print(f"{m}x{k}x{n} {layout} cublas {t_ref * 1e3:7.1f} us | "
                  f"{kernels(torch, lambda: torch.matmul(a, b, out=out))}")
            for mode in modes:
                for label, env in variants:
                    os.environ.update(env)  # libecgemm reads the pins per call
                    try:
                        call = lambda: ecgemm.matmul(a, b, out=out, mode=mode)  # noqa: E731
                        out.fill_(float("nan"))
                        call()
                        res = (torch.linalg.norm(out.double() - ref) / torch.linalg.norm(ref)).item()
                        t = gpu_ms(torch, call, batches=15, calls=20)
                        print(f"  {mode:9s} {label:24s} {t * 1e3:7.1f} us  x{t_ref / t:5.2f}  res {res:.2e} | "
                              f"{kernels(torch, call)}")
                    finally:
                        for key in env:
                            os.environ.pop(key, None)
    return 0
