"""GEMV's along-the-long-side kernel in variants of its register budget and rows in flight, all in one library built
with `along_len_lab.patch` (against 495c5d5's gemv.cu; applies to d58ad7e's) (ECGEMM_LAB_GEMV picks the variant per call; 0 is the kernel as committed):

    0: __launch_bounds__(256),    8 rows in flight per row group (main)
    1: __launch_bounds__(256),    4 rows
    2: __launch_bounds__(256, 3), 8 rows (<= 80 registers)
    3: __launch_bounds__(256, 3), 4 rows
    4: __launch_bounds__(256, 4), 4 rows (<= 64 registers)
    5: __launch_bounds__(256, 4), 8 rows

ptxas alone gives R = 4 127-128 registers (2 CTAs an SM), R = 3 78-125, R = 1 grouped and unaligned 112.
GEMV pinned, tf32tf32, GPU time of back-to-back calls (median of rounds), each variant timed twice in the order 0..5,
5..0; cuBLAS SGEMM in the same process; a hash of C's bits per variant (rows in flight change which rows a group
reads together, not the order each output adds its products). One JSON line a product:

    python gemv_len_lab.py OUT.jsonl
"""
import hashlib
import json
import os
import sys

VARIANTS = range(6)
# (op, m, k, n, batch, pad_b): "TN" with a thin n, "NN" with a thin m: the large operand contiguous along its long side;
# pad_b 1 leaves B's rows off 16 bytes (the kernel's 4-byte loads)
SHAPES = [("TN", m, k, r, 1, 0) for r in (1, 2, 3, 4) for (m, k) in [(8192, 8192), (4096, 4096), (30000, 1000),
                                                                       (1000, 30000)]]
SHAPES += [("NN", r, k, n, 1, pad) for r in (1, 2, 3, 4) for (k, n) in [(4096, 8192), (4480, 2398)] for pad in (0, 1)]
SHAPES += [("TN", 512, 2048, 3, 64, 0), ("NN", 2, 2000, 16384, 1, 0), ("NN", 4, 904, 1000, 1, 0)]


def main(out):
    import torch
    import ecgemm

    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "narrow-tiles-2026-11-26"))
    from narrow_ab import gpu_us

    torch.backends.cuda.matmul.allow_tf32 = False
    os.environ["ECGEMM_FAMILY"] = "gemv"
    with open(out, "w") as f:
        for op, m, k, n, batch, pad_b in SHAPES:
            g = torch.Generator(device="cuda").manual_seed(m + k + n + batch)
            shape_a = (batch, k, m) if op[0] == "T" else (batch, m, k)
            shape_b = (batch, n, k) if op[1] == "T" else (batch, k, n)
            a = torch.rand(*shape_a, device="cuda", generator=g) * 2 - 1
            b = torch.rand(*shape_b[:-1], shape_b[-1] + pad_b, device="cuda", generator=g)[..., :shape_b[-1]] * 2 - 1
            a = a.transpose(1, 2) if op[0] == "T" else a
            b = b.transpose(1, 2) if op[1] == "T" else b
            if batch == 1:
                a, b = a[0], b[0]
            c = torch.empty(*((batch,) if batch > 1 else ()), m, n, device="cuda")
            row = {"op": op, "m": m, "k": k, "n": n, "batch": batch, "pad_b": pad_b,
                   "route": ecgemm.explain(a, b, mode="tf32tf32"),
                   "cublas_us": gpu_us(lambda: torch.matmul(a, b, out=c)), "us": {}, "bits": {}}
            for v in VARIANTS:
                os.environ["ECGEMM_LAB_GEMV"] = str(v)
                c.fill_(float("nan"))
                ecgemm.matmul(a, b, mode="tf32tf32", out=c)
                torch.cuda.synchronize()
                row["bits"][v] = hashlib.sha256(c.cpu().numpy().tobytes()).hexdigest()[:16]
            for v in list(VARIANTS) + list(reversed(VARIANTS)):
                os.environ["ECGEMM_LAB_GEMV"] = str(v)
                row["us"].setdefault(v, []).append(gpu_us(lambda: ecgemm.matmul(a, b, mode="tf32tf32", out=c)))
            os.environ.pop("ECGEMM_LAB_GEMV")
            t0 = sum(row["us"][0]) / 2
            print(f"{op} {m} x {k} x {n} x{batch} pad {pad_b}: cuBLAS {row['cublas_us']:.1f} us, "
                  f"v0 {t0:.1f} us; v0 / v: " +
                  " ".join(f"{t0 / (sum(row['us'][v]) / 2):.3f}" for v in VARIANTS) +
                  f"; same bits {len(set(row['bits'].values())) == 1} | {row['route'][:80]}", flush=True)
            f.write(json.dumps(row) + "\n")
            del a, b, c
            torch.cuda.empty_cache()


if __name__ == "__main__":
    main(sys.argv[1])
