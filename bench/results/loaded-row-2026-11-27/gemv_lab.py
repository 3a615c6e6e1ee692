"""GEMV's along-k kernel for a thin side of 2-4 (16-byte loads of the large operand, one warp a line), staged and
loaded, in variants of its register budget and unroll, all in one library built from `gemv_lab.patch` (ECGEMM_LAB_GEMV
picks the variant per call; 0 is the kernel as committed):

    0: __launch_bounds__(256),    4 runs of 512 bytes in flight per warp (main)
    1: __launch_bounds__(256),    8 runs
    2: __launch_bounds__(256, 3), 4 runs (<= 80 registers)
    3: __launch_bounds__(256, 2), 8 runs (<= 128 registers)
    4: __launch_bounds__(256),    2 runs
    5: __launch_bounds__(256, 3), 8 runs

GEMV pinned (ECGEMM_FAMILY=gemv), tf32tf32, GPU time of back-to-back calls (median of rounds), each variant timed
twice in the order 0..5, 5..0; cuBLAS SGEMM in the same process; a hash of C's bits per variant (one warp a line: the
order of additions does not depend on the unroll). One JSON line a product:

    python gemv_lab.py OUT.jsonl
"""
import hashlib
import json
import os
import sys

VARIANTS = range(6)
# (op, m, k, n, batch); op "NT": each thin column contiguous along k (loaded), "NN": staged
SHAPES = [(op, m, k, n, 1) for op in ("NT", "NN") for (m, k, n) in
          [(8192, 8192, 2), (8192, 8192, 3), (8192, 8192, 4), (4096, 4096, 2), (4096, 4096, 3), (4096, 4096, 4),
           (30000, 1000, 3), (1024, 65536, 2), (4612, 13012, 3), (2000, 3000, 4)]]
SHAPES += [("NT", 3, 14424, 2748, 1), ("NT", 3, 5080, 3364, 1), ("NT", 4, 2048, 16384, 1), ("NT", 2, 812, 13028, 1),
           ("NT", 4, 8744, 250, 1), ("NT", 512, 2048, 3, 64), ("NN", 512, 2048, 3, 64), ("NT", 256, 1500, 2, 100)]


def main(out):
    import torch
    import ecgemm

    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "narrow-tiles-2026-11-26"))
    from narrow_ab import gpu_us
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "batch-rows-2026-11-27"))
    from gemv_ab import operands

    torch.backends.cuda.matmul.allow_tf32 = False
    os.environ["ECGEMM_FAMILY"] = "gemv"
    with open(out, "w") as f:
        for op, m, k, n, batch in SHAPES:
            a, b, c = operands(torch, op, m, k, n, batch)
            row = {"op": op, "m": m, "k": k, "n": n, "batch": batch, "route": ecgemm.explain(a, b, mode="tf32tf32"),
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
            print(f"{op} {m} x {k} x {n} x{batch}: cuBLAS {row['cublas_us']:.1f} us, v0 {t0:.1f} us; v0 / v: " +
                  " ".join(f"{t0 / (sum(row['us'][v]) / 2):.3f}" for v in VARIANTS) +
                  f"; same bits {len(set(row['bits'].values())) == 1} | {row['route'][:80]}", flush=True)
            f.write(json.dumps(row) + "\n")
            del a, b, c
            torch.cuda.empty_cache()


if __name__ == "__main__":
    main(sys.argv[1])
