"""Outputs of ecgemm on fixed operands, saved or compared bit for bit: run once with one build ("save F"), once
with another ("check F"). Shapes that fused_mma takes with cluster-reduced splits, ragged edges, k tails and
4-byte copies, in the corrected modes, on the planner's route.

    python bits.py save|check out.pt
"""
import sys

import torch

import ecgemm

SHAPES = [  # m, k, n, op, pad (elements a row, both operands)
    (173, 71, 665, "TT", 0), (5094, 72, 10, "NN", 0), (255, 85, 283, "TT", 3), (130, 257, 300, "NN", 0),
    (1, 700, 513, "NT", 0), (15060, 4, 18, "NT", 0), (9, 109, 13946, "TN", 0), (1914, 35, 536, "NT", 1),
    (275, 130, 1178, "NN", 0), (4034, 133, 34, "TT", 29), (318, 156, 768, "TN", 0), (7, 66, 1517, "NT", 2),
    (1, 422, 5, "NN", 0), (164, 415, 1, "TT", 0), (29, 74, 105, "TN", 5), (1400, 142, 70, "TN", 0),
]
BATCHES = [(540, 28, 35, 116), (24, 183, 38, 198), (3, 14, 279, 408)]


def operand(rows, cols, pad, trans, seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    store = torch.full((rows, cols + pad), float("nan"), device="cuda")
    view = store[:, :cols]
    view.uniform_(-1.0, 1.0, generator=g)
    return view.t() if trans else view


def outputs():
    out = {}
    for i, (m, k, n, op, pad) in enumerate(SHAPES):
        ta, tb = op[0] == "T", op[1] == "T"
        a = operand(*((k, m) if ta else (m, k)), pad, ta, 2 * i)
        b = operand(*((n, k) if tb else (k, n)), pad, tb, 2 * i + 1)
        for mode in ("tf32tf32", "halfhalf", "auto"):
            c = torch.full((m, n), float("nan"), device="cuda")
            ecgemm.matmul(a, b, out=c, mode=mode)
            out[f"{m}x{k}x{n}{op}-{mode}"] = (c.cpu(), ecgemm.explain(a, b, mode=mode))
    for j, (bt, m, k, n) in enumerate(BATCHES):
        g = torch.Generator(device="cuda").manual_seed(100 + j)
        a = torch.rand((bt, m, k), device="cuda", generator=g) * 2 - 1
        b = torch.rand((bt, k, n), device="cuda", generator=g) * 2 - 1
        for mode in ("tf32tf32", "halfhalf", "auto"):
            out[f"b{bt}x{m}x{k}x{n}-{mode}"] = (ecgemm.matmul(a, b, mode=mode).cpu(), ecgemm.explain(a, b, mode=mode))
    return out


def main():
    what, path = sys.argv[1], sys.argv[2]
    got = outputs()
    if what == "save":
        torch.save(got, path)
        print(f"saved {len(got)} outputs")
        return
    ref = torch.load(path)
    bad = 0
    for key, (c, route) in got.items():
        c0, route0 = ref[key]
        same = torch.equal(c.view(torch.int32), c0.view(torch.int32))
        nan = bool(torch.isnan(c).any())
        bad += (not same) or nan
        print(f"{key:28s} {'same bits' if same else 'DIFFERENT'}{' NaN' if nan else ''}  {route}"
              + ("" if route == route0 else f"  (was {route0})"))
    print(f"{len(got) - bad} of {len(got)} same bits, no NaN")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
