"""Per-call cost of ecgemm.matmul on tiny CuPy operands, split into host time and
host+GPU time, beside CuPy's own `@`, with a cProfile of the Python side."""
import cProfile
import pstats
import time

import cupy as cp

import ecgemm

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
