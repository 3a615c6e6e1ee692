"""Per-call cost of ecgemm.matmul on tiny CuPy operands, split into host time and
host+GPU time, with a cProfile of the Python side; and the stream-ordering control
(without a declared producer stream the race must show, with it it must not)."""
import cProfile
import os
import pstats
import sys
import time

import cupy as cp

import ecgemm

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests"))
from test_python_gpu import DeclaredStream, slow_then_write  # noqa: E402

b = cp.ones((300, 65), cp.float32)
for declared in (False, True):  # False is the control: the race must show as NaN
    a = cp.full((97, 300), cp.nan, cp.float32)
    out = cp.empty((97, 65), cp.float32)
    cp.cuda.Device().synchronize()
    p, q = cp.cuda.Stream(non_blocking=True), cp.cuda.Stream(non_blocking=True)
    with p:
        slow_then_write(cp, a, cp.ones((97, 300), cp.float32))
    ecgemm.matmul(DeclaredStream(a, p.ptr if declared else None), DeclaredStream(b, None),
                  out=DeclaredStream(out, None), stream=q)
    q.synchronize()
    p.synchronize()
    print("a declares its stream:", declared, "-> NaN in result:", bool(cp.isnan(out).any()))

a = cp.ones((64, 64), cp.float32)
o = cp.empty((64, 64), cp.float32)
for mode in ("tf32tf32", "fp32"):
    ecgemm.matmul(a, a, out=o, mode=mode)
    cp.cuda.Device().synchronize()
    t = time.perf_counter()
    for _ in range(3000):
        ecgemm.matmul(a, a, out=o, mode=mode)
    enqueue = time.perf_counter() - t
    cp.cuda.Device().synchronize()
    total = time.perf_counter() - t
    print(f"64^3 ecgemm.matmul {mode}: host {enqueue * 1e6 / 3000:.1f} us/call, "
          f"host+GPU {total * 1e6 / 3000:.1f} us/call")
t = time.perf_counter()
for _ in range(3000):
    a @ a
cp.cuda.Device().synchronize()
print(f"64^3 cupy a @ a: {(time.perf_counter() - t) * 1e6 / 3000:.1f} us/call")
prof = cProfile.Profile()
prof.enable()
for _ in range(2000):
    ecgemm.matmul(a, a, out=o)
prof.disable()
pstats.Stats(prof).sort_stats("tottime").print_stats(14)
