"""GPU time of a call that follows another library's kernel, not an ecgemm call: each round queues
(an elementwise torch kernel on 1 MiB, then the GEMM) 20 times behind a GPU sleep; the same with cuBLAS SGEMM
(TF32 off) and with the elementwise kernel alone, in one process (gemv-2026-11-25/ab.py's operands and timing).
Shapes as bench.random's conventions (interleaved_shapes.txt: m k n op pad_a pad_b).

    python interleaved.py interleaved_shapes.txt out.json
"""
import importlib.util
import json
import pathlib
import sys

import torch

import ecgemm

HERE = pathlib.Path(__file__).resolve().parent
spec = importlib.util.spec_from_file_location("ab", HERE.parent / "gemv-2026-11-25" / "ab.py")
ab = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ab)


def main(shapes_path, out_path):
    other = torch.rand(1 << 18, device="cuda")
    step = lambda: other.mul_(1.0)  # noqa: E731  (a foreign kernel: it signals no dependent early)
    alone = ab.gpu_us(step)
    rows = []
    for i, line in enumerate(open(shapes_path)):
        f = line.split("#")[0].split()
        if not f:
            continue
        m, k, n, op, pa, pb = int(f[0]), int(f[1]), int(f[2]), f[3], int(f[4]), int(f[5])
        ta, tb = op[0] == "T", op[1] == "T"
        a = ab.operand(*((k, m) if ta else (m, k)), pa, ta, 2 * i)
        b = ab.operand(*((n, k) if tb else (k, n)), pb, tb, 2 * i + 1)
        out = torch.empty((m, n), device="cuda")
        row = {"m": m, "k": k, "n": n, "op": op, "route": ecgemm.explain(a, b, mode="tf32tf32"),
               "elementwise_us": alone,
               "cublas_pair_us": ab.gpu_us(lambda: (step(), torch.matmul(a, b, out=out))),
               "ecgemm_pair_us": ab.gpu_us(lambda: (step(), ecgemm.matmul(a, b, out=out, mode="tf32tf32"))),
               "cublas_us": ab.gpu_us(lambda: torch.matmul(a, b, out=out)),
               "ecgemm_us": ab.gpu_us(lambda: ecgemm.matmul(a, b, out=out, mode="tf32tf32"))}
        rows.append(row)
        print(f"{m:6d} {k:6d} {n:6d} {op} pair: cuBLAS {row['cublas_pair_us']:6.2f} ecgemm {row['ecgemm_pair_us']:6.2f}"
              f" | alone: cuBLAS {row['cublas_us']:6.2f} ecgemm {row['ecgemm_us']:6.2f}", flush=True)
    json.dump({"device": torch.cuda.get_device_name(), "rows": rows}, open(out_path, "w"), indent=1)


if __name__ == "__main__":
    main(*sys.argv[1:3])
