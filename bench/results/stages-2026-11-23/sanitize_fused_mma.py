"""A few calls of one kernel family for compute-sanitizer (racecheck, memcheck): fused_mma, or the family
ECGEMM_SANITIZE_FAMILY names; one product in a cluster, through partials and unsplit, and a batch. Each
result is checked against FP64, so that a run which reports nothing also computed the right thing."""
import os

import torch

import ecgemm

os.environ["ECGEMM_FAMILY"] = os.environ.get("ECGEMM_SANITIZE_FAMILY", "fused_mma")
torch.manual_seed(0)
for m, k, n, batch in [
        (29, 74, 105, 1), (1, 587, 4, 1), (130, 300, 257, 1), (7, 127, 33, 3)]:
    shape_a, shape_b = ((batch, m, k), (batch, k, n)) if batch > 1 else ((m, k), (k, n))
    a = torch.rand(shape_a, device="cuda") - 0.5
    b = torch.rand(shape_b, device="cuda") - 0.5
    for mode in ("tf32tf32", "halfhalf"):
        c = ecgemm.matmul(a, b, mode=mode)
        ref = a.double() @ b.double()
        res = ((c.double() - ref).norm() / ref.norm()).item()
        print(m, k, n, batch, mode, ecgemm.explain(a, b, mode=mode), f"residual {res:.2e}")
        assert res < 1e-6, res
