"""A few GEMV calls for compute-sanitizer (memcheck, racecheck): the along-k kernel with its thin operand staged
(widths 2-4), 16-byte and unaligned lines, split and unsplit k, a batch; each checked against an FP64 product.

    compute-sanitizer --tool racecheck python gemv_sanitize.py
"""
import os

import torch

import ecgemm

os.environ["ECGEMM_FAMILY"] = "gemv"
torch.backends.cuda.matmul.allow_tf32 = False
worst = 0.0
# (m, k, n, batch, pad, thin operand contiguous along k: not staged, 16-byte loads where aligned)
for m, k, n, batch, pad, thin_k in [(300, 5000, 3, 1, 0, False), (300, 5001, 2, 1, 1, False), (2, 4099, 257, 1, 0, True),
                                    (129, 2500, 4, 3, 0, False), (1000, 40000, 3, 1, 0, False), (700, 3000, 3, 1, 0, True),
                                    (257, 6000, 4, 3, 0, True), (300, 5001, 2, 1, 0, True), (500, 4096, 3, 1, 2, True)]:
    a = torch.rand(batch, m, k + pad, device="cuda")[..., :k] * 2 - 1
    b = torch.rand(batch, k, n, device="cuda") * 2 - 1
    if m < n:  # the large operand op(B)^T contiguous along k
        b = torch.rand(batch, n, k + pad, device="cuda")[..., :k].transpose(1, 2) * 2 - 1
    elif thin_k:  # op(B)'s columns contiguous along k (with a pad: off 16 bytes, staged again)
        b = torch.rand(batch, n, k + pad, device="cuda")[..., :k].transpose(1, 2) * 2 - 1
    c = ecgemm.matmul(a, b, mode="tf32tf32")
    ref = a.double() @ b.double()
    res = float(torch.linalg.norm(c.double() - ref) / torch.linalg.norm(ref))
    worst = max(worst, res)
    print(m, k, n, batch, pad, thin_k, ecgemm.explain(a[0], b[0], mode="tf32tf32").split(" workspace")[0], f"{res:.2e}")
assert worst < 1e-6, worst
print("ok")
