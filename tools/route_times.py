"""GPU time of each route on given shapes (queue prefilled, so the host's cost per call
drops out), beside cuBLAS SGEMM in the same process, and the kernels the default route
runs. python tools/route_times.py [--shapes 'm,k,n;...'] [--modes tf32tf32,halfhalf]
[--routes default,mma,planes,fused] [--env NAME=v1,v2] (A is m x k)"""
import argparse
import os

import torch
from torch.profiler import ProfilerActivity, profile

import ecgemm
from bench.timing import gpu_ms

PINS = {"default": {}, "mma": {"ECGEMM_TC_KERNEL": "mma"}, "planes": {"ECGEMM_TC_KERNEL": "planes"},
        "fused": {"ECGEMM_TC_KERNEL": "fused"}, "simt": {"ECGEMM_CORRECTED_ROUTE": "simt"}}


def kernels(call):
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(10):
            call()
        torch.cuda.synchronize()
    rows = [(e.device_time_total / 10, e.key) for e in prof.key_averages() if getattr(e, "device_time_total", 0)]
    return "; ".join(f"{us:.1f} {key[:48]}" for us, key in sorted(rows, reverse=True))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--shapes", default="256,256,256;384,384,384;512,512,512;768,768,768;1024,1024,1024")
    p.add_argument("--modes", default="tf32tf32,halfhalf")
    p.add_argument("--routes", default="default,mma,planes,fused")
    p.add_argument("--env", default="", help="NAME=v1,v2: also time the default route under each value")
    args = p.parse_args()
    torch.backends.cuda.matmul.allow_tf32 = False
    variants = [(r, PINS[r]) for r in args.routes.split(",")]
    if args.env:
        name, values = args.env.split("=")
        variants += [(f"{name}={v}", {name: v}) for v in values.split(",")]
    for spec in args.shapes.split(";"):
        m, k, n = map(int, spec.split(","))
        a = torch.rand(m, k, device="cuda") * 2 - 1
        b = torch.rand(k, n, device="cuda") * 2 - 1
        ref = a.double() @ b.double()
        out = torch.empty(m, n, device="cuda")
        t_ref = gpu_ms(torch, lambda: torch.matmul(a, b, out=out), batches=15, calls=20)
        print(f"{m}x{k}x{n} cublas {t_ref * 1e3:7.1f} us | {kernels(lambda: torch.matmul(a, b, out=out))}")
        for mode in args.modes.split(","):
            for label, env in variants:
                os.environ.update(env)
                call = lambda: ecgemm.matmul(a, b, out=out, mode=mode)
                out.fill_(float("nan"))
                call()
                res = (torch.linalg.norm(out.double() - ref) / torch.linalg.norm(ref)).item()
                t = gpu_ms(torch, call, batches=15, calls=20)
                print(f"  {mode:9s} {label:24s} {t * 1e3:7.1f} us  x{t_ref / t:5.2f}  res {res:.2e} | {kernels(call)}")
                for key in env:
                    os.environ.pop(key)


if __name__ == "__main__":
    main()
