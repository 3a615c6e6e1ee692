"""Three calls of each listed product, for ncu: "m k n op [ECGEMM_FAMILY pin]" as arguments."""
import os
import sys

import torch

import ecgemm

for spec in sys.argv[1:]:
    parts = spec.split(":", 4)
    m, k, n, op = int(parts[0]), int(parts[1]), int(parts[2]), parts[3]
    pin = parts[4] if len(parts) > 4 else None
    ta, tb = op[0] == "T", op[1] == "T"
    a = torch.rand((k, m) if ta else (m, k), device="cuda")
    b = torch.rand((n, k) if tb else (k, n), device="cuda")
    a, b = (a.t() if ta else a), (b.t() if tb else b)
    out = torch.empty((m, n), device="cuda")
    if pin:
        os.environ["ECGEMM_FAMILY"] = pin
    print(spec, ecgemm.explain(a, b, mode="tf32tf32"), flush=True)
    for _ in range(3):
        ecgemm.matmul(a, b, out=out, mode="tf32tf32")
    torch.cuda.synchronize()
    os.environ.pop("ECGEMM_FAMILY", None)
