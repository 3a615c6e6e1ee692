"""One thin product (one side at most 32, the others long) on a pinned family, for ncu:
python thin_probe.py FAMILY OP M K N (OP: NN, TN, NT or TT; T: the operand is the transpose of a contiguous
tensor). Prints the route, then runs the call five times in tf32tf32 (ncu skips the first launches)."""
import os
import sys

import torch

family, op, m, k, n = sys.argv[1], sys.argv[2], *map(int, sys.argv[3:6])
os.environ["ECGEMM_FAMILY"] = family
import ecgemm  # noqa: E402  (after the pin: the library reads it per call, the import order only documents it)

g = torch.Generator(device="cuda").manual_seed(1)
a = torch.rand(k, m, device="cuda", generator=g).T if op[0] == "T" else torch.rand(m, k, device="cuda", generator=g)
b = torch.rand(n, k, device="cuda", generator=g).T if op[1] == "T" else torch.rand(k, n, device="cuda", generator=g)
print(ecgemm.explain(a, b, mode="tf32tf32"))
for _ in range(5):
    c = ecgemm.matmul(a, b, mode="tf32tf32")
torch.cuda.synchronize()
