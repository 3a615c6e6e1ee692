"""fused_wgmma's narrow tiles (ECGEMM_FAMILY=fused_wgmma:narrow) against the planner's own route, fused_wgmma's
wide tiles and cuBLAS SGEMM in the same process, on products with one side of 12-64 against two long ones (the
calibration sample's and the held-out sample's misses, and the issue's): GPU time of back-to-back calls, median of
rounds, and each route's residual against an FP64 product over cuBLAS's. One JSON line a (product, mode).

    python narrow_ab.py OUT.jsonl
"""
import json
import os
import sys

import torch

import ecgemm

torch.backends.cuda.matmul.allow_tf32 = False
# (op, m, k, n)
SHAPES = [("TN", 14626, 3729, 22), ("TN", 46, 2747, 13204), ("NN", 9378, 5397, 30), ("TN", 16233, 10007, 21),
          ("NT", 7706, 12030, 60), ("NT", 3667, 12558, 49), ("TT", 35, 5667, 3545), ("NN", 42, 3550, 5559),
          ("TN", 14079, 2300, 18), ("TN", 8915, 1029, 26), ("TT", 13, 8182, 13147), ("NT", 32, 12400, 3827),
          ("TN", 7747, 512, 14), ("NT", 21, 7783, 2849), ("TN", 3840, 15259, 48), ("TT", 1834, 2941, 17),
          ("NN", 37, 1339, 4892), ("NT", 62, 1594, 4288), ("TN", 4876, 4316, 64), ("NN", 1997, 6267, 14),
          ("NN", 16, 16384, 16384), ("NN", 64, 8192, 8192), ("NN", 8192, 4096, 33), ("TT", 1858, 522, 14)]
ROUTES = {"planner": None, "wide": "fused_wgmma", "narrow": "fused_wgmma:narrow"}


def operands(op, m, k, n):
    g = torch.Generator(device="cuda").manual_seed(m + k + n)
    a = torch.rand(k, m, device="cuda", generator=g).T if op[0] == "T" else torch.rand(m, k, device="cuda", generator=g)
    b = torch.rand(n, k, device="cuda", generator=g).T if op[1] == "T" else torch.rand(k, n, device="cuda", generator=g)
    return a * 2 - 1, b * 2 - 1


def gpu_us(fn, rounds=7):
    fn()
    torch.cuda.synchronize()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    fn()
    end.record()
    end.synchronize()
    calls = max(3, min(50, int(2000 / max(start.elapsed_time(end) * 1e3, 1.0))))
    times = []
    for _ in range(rounds):
        start.record()
        for _ in range(calls):
            fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) * 1e3 / calls)
    return sorted(times)[len(times) // 2]


def rel(x, ref):
    return float(torch.linalg.norm(x.double() - ref) / torch.linalg.norm(ref))


def main(out):
    with open(out, "w") as f:
        for op, m, k, n in SHAPES:
            a, b = operands(op, m, k, n)
            a, b = (a.T.contiguous().T if op[0] == "T" else a.contiguous()), (b.T.contiguous().T if op[1] == "T" else b.contiguous())
            ref = a.double() @ b.double()
            c = torch.empty(m, n, device="cuda")
            cublas = gpu_us(lambda: torch.matmul(a, b, out=c))
            res_cublas = rel(c, ref)
            for mode in ("tf32tf32", "halfhalf"):
                row = {"op": op, "m": m, "k": k, "n": n, "mode": mode, "cublas_us": cublas, "cublas_residual": res_cublas}
                for name, pin in ROUTES.items():
                    if pin:
                        os.environ["ECGEMM_FAMILY"] = pin
                    else:
                        os.environ.pop("ECGEMM_FAMILY", None)
                    c.fill_(float("nan"))
                    us = gpu_us(lambda: ecgemm.matmul(a, b, mode=mode, out=c))
                    row[name] = {"route": ecgemm.explain(a, b, mode=mode), "us": us, "x_cublas": cublas / us,
                                 "residual_ratio": rel(c, ref) / res_cublas}
                os.environ.pop("ECGEMM_FAMILY", None)
                print(f"{op} {m} x {k} x {n} {mode}: cuBLAS {cublas:.1f} us; " + "; ".join(
                    f"{name} {row[name]['us']:.1f} us x{row[name]['x_cublas']:.2f} res {row[name]['residual_ratio']:.2f}"
                    for name in ROUTES) + f" | {row['narrow']['route']}", flush=True)
                f.write(json.dumps(row) + "\n")
            del a, b, c, ref
            torch.cuda.empty_cache()


if __name__ == "__main__":
    main(sys.argv[1])
