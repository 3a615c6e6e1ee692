"""Issue 25, k <= 32 on grids of 0.5-2 waves: each route ecgemm has for the corrected modes there, timed on the
random sample's misses beside cuBLAS SGEMM (GPU time, bench.timing.gpu_ms), with its residual. simt's square and
slim tiles at k <= 32 need simt_tiles_lab.patch (ECGEMM_LAB_SIMT_TILES=1 skips the stream tile in plan_simt).

    python lab_k32.py                 # the table
    python lab_k32.py M,K,N LAYOUT ROUTE   # one call, for ncu
"""
import os
import sys

import torch

import ecgemm
from bench.timing import gpu_ms

SHAPES = [  # m, k, n, layout: the FP32 form's misses, then the stream tile's (sweep-2026-11-27 call 1)
    (1129, 25, 419, "NN"), (1936, 23, 280, "NN"), (6009, 28, 77, "NT"), (7733, 19, 40, "TT"),
    (156, 25, 4952, "NT"), (10716, 22, 72, "TN"), (4907, 29, 217, "TN"), (517, 20, 1096, "TN"),
    (21, 23, 13890, "TN"), (2156, 17, 736, "TN"),
    (1494, 3, 687, "TN"), (4447, 32, 1231, "NT"), (3950, 8, 3687, "NN"), (640, 16, 1964, "TT"),
    (849, 6, 3971, "NT"), (3506, 18, 2803, "NT")]
ROUTES = {"default": {}, "fp32_form": {"ECGEMM_FAMILY": "fused_mma:32/fp32"},
          "stream": {"ECGEMM_FAMILY": "simt"},
          "simt_tiles": {"ECGEMM_FAMILY": "simt", "ECGEMM_LAB_SIMT_TILES": "1"},
          "mma32_products": {"ECGEMM_FAMILY": "fused_mma:32"}, "mma64_products": {"ECGEMM_FAMILY": "fused_mma:64"}}


def operand(rows, cols, transposed):
    t = torch.rand(cols, rows, device="cuda") * 2 - 1 if transposed else torch.rand(rows, cols, device="cuda") * 2 - 1
    return t.T if transposed else t


def main():
    torch.backends.cuda.matmul.allow_tf32 = False
    if len(sys.argv) == 4:
        m, k, n = map(int, sys.argv[1].split(","))
        a, b = operand(m, k, sys.argv[2][0] == "T"), operand(k, n, sys.argv[2][1] == "T")
        out = torch.empty(m, n, device="cuda")
        if sys.argv[3] == "cublas":
            call = lambda: torch.matmul(a, b, out=out)  # noqa: E731
        else:
            os.environ.update(ROUTES[sys.argv[3]])
            call = lambda: ecgemm.matmul(a, b, out=out, mode="tf32tf32")  # noqa: E731
        call()
        torch.cuda.synchronize()
        torch.cuda.profiler.start()  # ncu --profile-from-start off: only these calls
        for _ in range(3):
            call()
        torch.cuda.synchronize()
        torch.cuda.profiler.stop()
        return
    print("| m x k x n | layout | cuBLAS us | " + " | ".join(ROUTES) + " |")
    print("|---|---|---:|" + "---:|" * len(ROUTES))
    for m, k, n, layout in SHAPES:
        a, b = operand(m, k, layout[0] == "T"), operand(k, n, layout[1] == "T")
        ref = a.double() @ b.double()
        out = torch.empty(m, n, device="cuda")
        res_c = (torch.linalg.norm(torch.matmul(a, b).double() - ref) / torch.linalg.norm(ref)).item()
        t_ref = gpu_ms(torch, lambda: torch.matmul(a, b, out=out), batches=15, calls=20)
        cells = []
        for env in ROUTES.values():
            os.environ.update(env)
            try:
                call = lambda: ecgemm.matmul(a, b, out=out, mode="tf32tf32")  # noqa: E731
                out.fill_(float("nan"))
                call()
                res = (torch.linalg.norm(out.double() - ref) / torch.linalg.norm(ref)).item()
                t = gpu_ms(torch, call, batches=15, calls=20)
                route = ecgemm.explain(a, b, mode="tf32tf32") if hasattr(ecgemm, "explain") else ""
                tile = route.split("tile=")[1].split()[0] if "tile=" in route else route.split()[0] if route else ""
                tile += " " + route.split("est=")[1].split()[0] if "est=" in route else ""
                cells.append(f"{t * 1e3:.1f} ({t_ref / t:.2f}x, res {res / res_c:.2f}, {tile})")
            except Exception as e:  # a route that cannot run the call
                cells.append(f"- ({type(e).__name__})")
            finally:
                for key in env:
                    os.environ.pop(key, None)
        print(f"| {m} x {k} x {n} | {layout} | {t_ref * 1e3:.1f} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
