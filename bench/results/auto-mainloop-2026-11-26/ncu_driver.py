"""4096^3 on urand(-1, 1) (data AUTO scales): one halfhalf call and one AUTO call after a warm-up of each, for ncu to
compare AUTO's persistent plane mainloop with halfhalf's (call 1)."""
import torch

import ecgemm

n = 4096
g = torch.Generator(device="cuda").manual_seed(1)
a = torch.rand((n, n), device="cuda", generator=g) * 2 - 1
b = torch.rand((n, n), device="cuda", generator=g) * 2 - 1
for mode in ("halfhalf", "auto"):
    print(mode, ecgemm.explain(a, b, mode=mode), flush=True)
    ecgemm.matmul(a, b, mode=mode)
torch.cuda.synchronize()
for mode in ("halfhalf", "auto"):
    ecgemm.matmul(a, b, mode=mode)
torch.cuda.synchronize()
