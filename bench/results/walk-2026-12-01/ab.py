"""The planes route's mainloop as persistent CTAs walking the tiles (walk) against one CTA a tile
(plain), on the same plan: ECGEMM_FAMILY=planes:plain / planes:walk (call 1's tree had an experiment
switch, ECGEMM_PLANES_WALK=0/1, under ECGEMM_FAMILY=planes, in their place). GPU time of back-to-back calls (bench.timing.gpu_ms), rounds plain, walk, walk,
plain; cuBLAS SGEMM (torch.matmul, TF32 off) in the same process; both outputs compared bit for bit.

    python ab.py OUT.jsonl [m,k,n;...]
"""
import json
import os
import sys

import torch

import ecgemm
from bench.timing import gpu_ms

SHAPES = ("2048,64,2048;4096,64,4096;4096,128,4096;8192,33,8192;8192,64,8192;8192,128,8192;"
          "8192,256,8192;8192,512,8192;16384,64,16384;16384,256,16384;13229,53,14746;8377,66,1560;"
          "8369,56,1522;4096,1024,4096;2048,2048,2048;4096,4096,4096;8192,8192,8192;3360,12554,158;"
          "2406,15001,134;169,11194,3488;641,1197,167;1024,1024,1024")


def main():
    out_path = sys.argv[1]
    shapes = [tuple(map(int, s.split(","))) for s in (sys.argv[2] if len(sys.argv) > 2 else SHAPES).split(";")]
    torch.backends.cuda.matmul.allow_tf32 = False
    rows = []
    g = torch.Generator(device="cuda").manual_seed(1)
    for m, k, n in shapes:
        a = torch.rand(m, k, device="cuda", generator=g) * 2 - 1
        b = torch.rand(k, n, device="cuda", generator=g) * 2 - 1
        ref = a.double() @ b.double()
        out = torch.empty(m, n, device="cuda")
        big = 2.0 * m * n * k > 2e11
        kw = dict(batches=5, calls=3) if big else dict(batches=15, calls=10)
        t_ref = gpu_ms(torch, lambda: torch.matmul(a, b, out=out), **kw)
        res_ref = (torch.linalg.norm(out.double() - ref) / torch.linalg.norm(ref)).item()
        for mode in ("tf32tf32", "halfhalf"):
            outs, times = {}, {"0": [], "1": []}
            for walk in ("0", "1", "1", "0"):
                os.environ["ECGEMM_FAMILY"] = "planes:walk" if walk == "1" else "planes:plain"
                call = lambda: ecgemm.matmul(a, b, out=out, mode=mode)  # noqa: E731
                if walk not in outs:
                    out.fill_(float("nan"))
                    call()
                    outs[walk] = out.clone()
                times[walk].append(gpu_ms(torch, call, **kw))
            os.environ["ECGEMM_FAMILY"] = "planes"
            plan = ecgemm.explain(a, b, mode=mode)
            same = torch.equal(outs["0"], outs["1"])
            res = (torch.linalg.norm(outs["1"].double() - ref) / torch.linalg.norm(ref)).item()
            t0, t1 = sum(times["0"]) / 2, sum(times["1"]) / 2
            row = dict(m=m, k=k, n=n, mode=mode, cublas_ms=t_ref, plain_ms=t0, walk_ms=t1,
                       plain_rounds=times["0"], walk_rounds=times["1"], same_bits=same,
                       residual=res, cublas_residual=res_ref, plan=plan)
            rows.append(row)
            print(f"{m}x{k}x{n} {mode:9s} cublas {t_ref*1e3:8.1f} plain {t0*1e3:8.1f} walk {t1*1e3:8.1f} us "
                  f"walk/plain x{t0/t1:5.3f}  x_cublas {t_ref/t0:5.2f} -> {t_ref/t1:5.2f}  same={same} "
                  f"res {res/res_ref:4.2f}x", flush=True)
    del os.environ["ECGEMM_FAMILY"]
    with open(out_path, "w") as f:
        for r in rows:
            f.write(json.dumps(r) + "\n")


if __name__ == "__main__":
    main()
