"""The planner's own route, in each mode changed.txt names and in tf32tf32 beside it, on the cases changed.py listed
(the plan differs between two builds), with cuBLAS SGEMM (torch.matmul; torch.bmm for a batch) in the same process:
probe.py's operands and timing. Run once with each build on PYTHONPATH, in the order base, new, new,
base; summarize.py compares the files. One JSON line a (case, mode).

    python changed_ab.py changed.txt OUT.jsonl
"""
import json
import sys

import torch

from probe import gpu_us, operand, rel

import ecgemm  # noqa: E402


def cases(path):
    for line in open(path):
        seed, cid, batch, m, k, n, op, pad_a, pad_b, mode = line.split("|")[0].split()
        yield seed, cid, int(batch), int(m), int(k), int(n), op, int(pad_a), int(pad_b), mode


def main(shapes, out):
    with open(out, "w") as f:
        for seed, cid, batch, m, k, n, op, pad_a, pad_b, mode in cases(shapes):
            if batch > 1:
                g = torch.Generator(device="cuda").manual_seed(m * 7 + k)
                a = torch.rand(batch, m, k, device="cuda", generator=g) * 2 - 1
                b = torch.rand(batch, k, n, device="cuda", generator=g) * 2 - 1
                c = torch.empty(batch, m, n, device="cuda")
                peer = lambda: torch.bmm(a, b, out=c)  # noqa: E731
            else:
                ta, tb = op[0] == "T", op[1] == "T"
                a = operand(*((k, m) if ta else (m, k)), pad_a, ta, m * 7 + k)
                b = operand(*((n, k) if tb else (k, n)), pad_b, tb, n * 11 + k)
                c = torch.empty(m, n, device="cuda")
                peer = lambda: torch.matmul(a, b, out=c)  # noqa: E731
            ref = a.double() @ b.double()
            peer_us = gpu_us(peer)
            res_peer = rel(c, ref)
            row = {"seed": seed, "id": cid, "batch": batch, "op": op, "m": m, "k": k, "n": n, "mode": mode,
                   "peer_us": peer_us}
            for name in dict.fromkeys((mode, "tf32tf32")):
                c.fill_(float("nan"))
                us = gpu_us(lambda: ecgemm.matmul(a, b, mode=name, out=c))
                row[name] = {"route": ecgemm.explain(a, b, mode=name), "us": us, "x_peer": peer_us / us,
                             "residual_ratio": rel(c, ref) / res_peer}
            print(f"{seed} {cid} {batch} x {m} x {k} x {n} {op}: peer {peer_us:.1f} us; " + "; ".join(
                f"{name} {row[name]['us']:.1f} us" for name in dict.fromkeys((mode, "tf32tf32"))), flush=True)
            f.write(json.dumps(row) + "\n")
            del a, b, c, ref
            torch.cuda.empty_cache()


if __name__ == "__main__":
    main(*sys.argv[1:3])
