"""Outputs of ecgemm on fixed operands, saved or compared bit for bit: run once with one build ("save F"), once
with another ("check F"). Shapes that fused_mma takes with cluster-reduced splits, ragged edges, k tails and
4-byte copies, in the corrected modes, on the planner's route; with "gemv", GEMVs along the long side (aligned
and not, one to four thin columns, ragged ends, batches), on the planner's route and with the fixed row groups
pinned (gemv:wide).

    python bits.py save|check out.pt [gemv]
"""
import os
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
GEMV_SHAPES = [  # m, k, n, op, pad: the thin side m (bench's row-major convention), the large operand along n
    (1, 4480, 2398, "NN", 0), (4, 862, 3430, "NN", 0), (3, 3396, 491, "NN", 0), (1, 2551, 1874, "NN", 0),
    (2, 994, 5089, "NN", 0), (1, 197, 2405, "NN", 0), (2, 525, 2567, "NN", 0), (1, 300, 4096, "NN", 0),
    (3, 777, 1001, "NN", 3), (1, 64, 130, "TN", 1), (2, 1000, 257, "NN", 0),
]
GEMV_BATCHES = [(402, 1, 11, 405), (22, 4, 249, 136), (260, 3, 384, 192), (9, 1, 400, 178), (35, 1, 169, 85)]


def operand(rows, cols, pad, trans, seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    store = torch.full((rows, cols + pad), float("nan"), device="cuda")
    view = store[:, :cols]
    view.uniform_(-1.0, 1.0, generator=g)
    return view.t() if trans else view


def outputs(gemv=False):
    out = {}
    shapes, batches = (GEMV_SHAPES, GEMV_BATCHES) if gemv else (SHAPES, BATCHES)
    pins = ("", "gemv:wide") if gemv else ("",)
    for pin in pins:
        if pin:
            os.environ["ECGEMM_FAMILY"] = pin
        try:
            out.update({f"{key}{'-' + pin if pin else ''}": v for key, v in products(shapes, batches).items()})
        finally:
            os.environ.pop("ECGEMM_FAMILY", None)
    return out


def products(shapes, batches):
    out = {}
    for i, (m, k, n, op, pad) in enumerate(shapes):
        ta, tb = op[0] == "T", op[1] == "T"
        a = operand(*((k, m) if ta else (m, k)), pad, ta, 2 * i)
        b = operand(*((n, k) if tb else (k, n)), pad, tb, 2 * i + 1)
        for mode in ("tf32tf32", "halfhalf", "auto"):
            c = torch.full((m, n), float("nan"), device="cuda")
            ecgemm.matmul(a, b, out=c, mode=mode)
            out[f"{m}x{k}x{n}{op}-{mode}"] = (c.cpu(), ecgemm.explain(a, b, mode=mode))
    for j, (bt, m, k, n) in enumerate(batches):
        g = torch.Generator(device="cuda").manual_seed(100 + j)
        a = torch.rand((bt, m, k), device="cuda", generator=g) * 2 - 1
        b = torch.rand((bt, k, n), device="cuda", generator=g) * 2 - 1
        for mode in ("tf32tf32", "halfhalf", "auto"):
            out[f"b{bt}x{m}x{k}x{n}-{mode}"] = (ecgemm.matmul(a, b, mode=mode).cpu(), ecgemm.explain(a, b, mode=mode))
    return out


def main():
    what, path = sys.argv[1], sys.argv[2]
    got = outputs(gemv=sys.argv[3:] == ["gemv"])
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
