"""GEMV's along-k kernel, its thin operand staged as [r][kk] (call 2's tree) or [kk][r] (main), or not staged where each
thin column is contiguous along k (call 9's tree; "NT" here), on products with one side of 1-4 whose large operand is
contiguous along k: the GEMV family pinned (ECGEMM_FAMILY=gemv) and the planner's route
beside cuBLAS SGEMM in the same process, GPU time of back-to-back calls (median of rounds), and a hash of C's bits to
compare builds with (the kernel's order of additions is meant to stay as it was). One JSON line a product; run once
per build, then compare:

    python gemv_ab.py OUT.jsonl
    python gemv_ab.py --compare NEW.jsonl BASE.jsonl
"""
import hashlib
import json
import os
import sys

# (op, m, k, n, batch): a width of 2-4 (staged) and of 1 (not staged: the control), long and short k
SHAPES = [("NN", 4612, 13012, 3, 1), ("NN", 1686, 10412, 3, 1), ("NT", 2583, 11754, 4, 1), ("NT", 2, 812, 13028, 1),
          ("NN", 4096, 4096, 4, 1), ("NN", 4096, 4096, 2, 1), ("NN", 8192, 8192, 3, 1), ("NT", 4, 2048, 16384, 1),
          ("NN", 1024, 65536, 2, 1), ("NN", 65536, 300, 4, 1), ("NN", 30000, 1000, 3, 1), ("NT", 2, 4000, 3000, 1),
          ("NN", 512, 2048, 3, 64), ("NN", 256, 700, 2, 200), ("NT", 512, 2048, 3, 64), ("NT", 8192, 8192, 3, 1),
          ("NT", 4096, 4096, 2, 1),
          ("NN", 8192, 8192, 1, 1), ("NN", 4612, 13012, 1, 1), ("NT", 1, 4096, 20000, 1)]
ROUTES = {"planner": None, "gemv": "gemv"}


def operands(torch, op, m, k, n, batch):
    """A, B (uniform(-1, 1), seeded by the shape; "T": a transposed view) and C of one product, or of a batch."""
    g = torch.Generator(device="cuda").manual_seed(m + k + n + batch)
    shape_a = (batch, k, m) if op[0] == "T" else (batch, m, k)
    shape_b = (batch, n, k) if op[1] == "T" else (batch, k, n)
    a = torch.rand(*shape_a, device="cuda", generator=g) * 2 - 1
    b = torch.rand(*shape_b, device="cuda", generator=g) * 2 - 1
    a = a.transpose(1, 2) if op[0] == "T" else a
    b = b.transpose(1, 2) if op[1] == "T" else b
    if batch == 1:
        a, b = a[0], b[0]
    return a, b, torch.empty(*((batch,) if batch > 1 else ()), m, n, device="cuda")


def main(out):
    import torch
    import ecgemm

    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "narrow-tiles-2026-11-26"))
    from narrow_ab import gpu_us

    torch.backends.cuda.matmul.allow_tf32 = False
    with open(out, "w") as f:
        for op, m, k, n, batch in SHAPES:
            a, b, c = operands(torch, op, m, k, n, batch)
            row = {"op": op, "m": m, "k": k, "n": n, "batch": batch,
                   "cublas_us": gpu_us(lambda: torch.matmul(a, b, out=c))}
            for name, pin in ROUTES.items():
                if pin:
                    os.environ["ECGEMM_FAMILY"] = pin
                else:
                    os.environ.pop("ECGEMM_FAMILY", None)
                c.fill_(float("nan"))
                ecgemm.matmul(a, b, mode="tf32tf32", out=c)
                torch.cuda.synchronize()
                bits = hashlib.sha256(c.cpu().numpy().tobytes()).hexdigest()[:16]
                us = gpu_us(lambda: ecgemm.matmul(a, b, mode="tf32tf32", out=c))
                row[name] = {"route": ecgemm.explain(a, b, mode="tf32tf32"), "us": us, "bits": bits}
            os.environ.pop("ECGEMM_FAMILY", None)
            print(f"{op} {m} x {k} x {n} x{batch}: cuBLAS {row['cublas_us']:.1f} us; " +
                  "; ".join(f"{r} {row[r]['us']:.1f} us" for r in ROUTES) + f" | {row['gemv']['route']}", flush=True)
            f.write(json.dumps(row) + "\n")
            del a, b, c
            torch.cuda.empty_cache()


def compare(new_path, base_path):
    new = [json.loads(line) for line in open(new_path)]
    base = [json.loads(line) for line in open(base_path)]
    print("| product | gemv: main / this tree (time) | x cuBLAS: main -> this tree | same bits | planner's route here |")
    print("|---|---:|---:|---|---|")
    for x, y in zip(new, base):
        name = f"{x['op']} {x['m']} x {x['k']} x {x['n']}" + (f" x{x['batch']}" if x["batch"] > 1 else "")
        cb = (x["cublas_us"] * y["cublas_us"]) ** 0.5
        print(f"| {name} | {y['gemv']['us'] / x['gemv']['us']:.3f} | {cb / y['gemv']['us']:.2f} -> "
              f"{cb / x['gemv']['us']:.2f} | {x['gemv']['bits'] == y['gemv']['bits']} | "
              f"{x['planner']['route'].split(' workspace')[0]} |")


if __name__ == "__main__":
    if sys.argv[1] == "--compare":
        compare(sys.argv[2], sys.argv[3])
    else:
        main(sys.argv[1])
