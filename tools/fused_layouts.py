"""Times one square product per operand layout and route (C ABI, CUDA events):
which source the fused kernel's transform reads (K-major or M/N-major TMA boxes, or
global loads for an unaligned leading dimension), against the plane route."""
import ctypes
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests"))
from _capi import MODES, load  # noqa: E402

lib = load()
h = ctypes.c_void_p()
lib.ecgemm_create(ctypes.byref(h))
lib.ecgemm_set_stream(h, torch.cuda.current_stream().cuda_stream)
one, zero = ctypes.c_float(1.0), ctypes.c_float(0.0)
n = int(sys.argv[1]) if len(sys.argv) > 1 else 4096
for route in ("fused", "planes"):
    os.environ["ECGEMM_TC_KERNEL"] = route
    for mode in ("tf32tf32", "halfhalf"):
        lib.ecgemm_set_mode(h, MODES[mode])
        for ta, tb, pad in ((0, 0, 0), (1, 0, 0), (0, 1, 0), (1, 1, 0), (1, 0, 1)):
            ld = n + pad
            a, b = torch.rand(ld * n, device="cuda"), torch.rand(ld * n, device="cuda")
            c = torch.empty(n * n, device="cuda")
            call = lambda: lib.ecgemm_sgemm(h, ta, tb, n, n, n, ctypes.addressof(one), a.data_ptr(), ld,
                                            b.data_ptr(), ld, ctypes.addressof(zero), c.data_ptr(), n)
            st = call()
            torch.cuda.synchronize()
            start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            for _ in range(5):
                call()
            stop.record()
            stop.synchronize()
            ms = start.elapsed_time(stop) / 5
            print(f"{route:>6} {mode:>8} ta={ta} tb={tb} ld={ld} status={st} {ms:8.3f} ms "
                  f"{2 * n ** 3 / ms / 1e9:6.1f} TFLOP/s", flush=True)
