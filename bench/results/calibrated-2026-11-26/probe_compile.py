"""torch.compile(mode="reduce-overhead") over plain torch.mm with changing shapes, the shape of
tests/test_streams_gpu.py::test_torch_compile_reduce_overhead_with_changing_shapes without ecgemm: run under
compute-sanitizer to tell whether that test's failure there (cudagraph trees' pool check) is ecgemm's."""
import sys

import torch

use_ecgemm = sys.argv[1:] == ["ecgemm"]
if use_ecgemm:
    import ecgemm.torch as et


def layer(x, w):
    return (et.mm(x, w, mode="halfhalf") if use_ecgemm else torch.mm(x, w)).relu()


compiled = torch.compile(layer, mode="reduce-overhead")
g = torch.Generator(device="cuda").manual_seed(9)
for m, k, n in [(512, 256, 384), (1024, 2048, 512), (512, 256, 384), (2048, 1024, 1024), (1024, 2048, 512)]:
    x = torch.rand(m, k, device="cuda", generator=g)
    w = torch.rand(k, n, device="cuda", generator=g)
    expected = layer(x, w)
    for _ in range(3):
        got = compiled(x, w)
    torch.cuda.synchronize()
    assert torch.equal(got, expected), (m, k, n)
print("probe ok", "ecgemm" if use_ecgemm else "torch.mm")
