"""Long k in the numerics lab (CPU, no GPU): tf32tf32 and halfhalf as the kernels promote them (one chain of k/8 or
k/16 round-to-nearest adds), with two-level promotion (blocks of 32 k-steps), and with chains cut at 4096 (kMaxChainK's
split-K), against an FP32 FMA chain in k order, all as relative Frobenius residuals to FP64 on urand(-1, 1).

    PYTHONPATH=python python bench/results/lab-long-k-2026-11-27/long_k.py > bench/results/lab-long-k-2026-11-27/long_k.txt
"""
import time

import numpy as np

import ecgemm.numerics as n

def rel(c, ref):
    return float(np.linalg.norm(c.astype(np.float64) - ref) / np.linalg.norm(ref))

def fma_chain(a, b):  # SGEMM's k-order FMA chain in float32 (one rounding a step)
    acc = np.zeros((a.shape[0], b.shape[1]), np.float32)
    for kk in range(a.shape[1]):
        acc = (acc.astype(np.float64) + np.outer(a[:, kk], b[kk, :]).astype(np.float64)).astype(np.float32)
    return acc

rng = np.random.default_rng(5)
m = nn = 24
for k in (1024, 4096, 8192, 16384):
    a = (rng.random((m, k), np.float32) * 2 - 1).astype(np.float32)
    b = (rng.random((k, nn), np.float32) * 2 - 1).astype(np.float32)
    ref = a.astype(np.float64) @ b.astype(np.float64)
    t = time.time()
    row = {"fp32 chain": rel(fma_chain(a, b), ref)}
    for mode in ("tf32tf32", "halfhalf"):
        row[mode] = rel(n.gemm(a, b, mode), ref)
        row[mode + " blocks 32"] = rel(n.gemm(a, b, mode, promote_block=32), ref)
        cut = [n.gemm(a[:, s:s + 4096], b[s:s + 4096], mode).astype(np.float32) for s in range(0, k, 4096)]
        tot = cut[0]
        for x in cut[1:]:
            tot = (tot + x).astype(np.float32)
        row[mode + " cut 4096"] = rel(tot, ref)
    print(k, " ".join(f"{key}={v:.2e}" for key, v in row.items()), f"({time.time() - t:.0f} s)", flush=True)
