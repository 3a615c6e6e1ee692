"""One fused_wgmma call on one operand layout, checked against an FP64 product (exit 2 above 1e-5; a debugging aid
for calls 3 and 4; cases.txt lists them):

    python cases.py FAMILY MODE OP M K N A_LD_EXTRA B_LD_EXTRA OFFSET
"""
import sys

import torch

import ecgemm


def operand(rows, cols, transposed, ld_extra, offset, seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    inner, outer = (cols, rows) if transposed else (rows, cols)  # stored column-major: inner x outer
    ld = inner + ld_extra
    buf = torch.full((offset + ld * outer + 1,), float("nan"), device="cuda")
    view = buf[offset:].as_strided((inner, outer), (1, ld))
    view.copy_(torch.rand(inner, outer, device="cuda", generator=g) * 2 - 1)
    return view.T if transposed else view  # op() as a rows x cols tensor


def main(family, mode, op, m, k, n, a_extra, b_extra, offset):
    import os
    os.environ["ECGEMM_FAMILY"] = family
    a = operand(m, k, op[0] == "T", a_extra, offset, 1)
    b = operand(k, n, op[1] == "T", b_extra, offset, 2)
    c = ecgemm.matmul(a, b, mode=mode)
    torch.cuda.synchronize()
    ref = a.double() @ b.double()
    res = float(torch.linalg.norm(c.double() - ref) / torch.linalg.norm(ref))
    print(f"{family} {mode} {op} {m}x{k}x{n} lda+{a_extra} ldb+{b_extra} offset {offset}: residual {res:.2e} | "
          f"{ecgemm.explain(a, b, mode=mode)}")
    if not res < 1e-5:  # NaN included: an unwritten or poisoned element
        sys.exit(2)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3], *map(int, sys.argv[4:]))
