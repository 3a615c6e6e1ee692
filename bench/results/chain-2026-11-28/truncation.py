"""Where the compensated tile's error comes from on positive data (call 4): operands x = h + l built so that both
splits keep h as hi and l as lo exactly and every lo is positive (the lo·lo products, ~2^-24 of each a·b, all add),
with h of 5 bits in [1, 2) (every Tensor Core sum of hi·hi products fits FP32's 24 bits), of 11 bits in [1, 2), or of
11 bits over 2^-3 ... 2^4 (those sums need more bits than the Tensor Core keeps; it truncates). Each tile unsplit
(ECGEMM_FAMILY=fused_mma:<tile>/unsplit), each corrected mode: the error against FP64 over the lo·lo sum's
(Frobenius), beside cuBLAS SGEMM's over the same.

    python truncation.py > truncation.md
"""
import os

import torch

import ecgemm

torch.backends.cuda.matmul.allow_tf32 = False
KINDS = {"5 bits": (16, 0), "11 bits": (1024, 0), "11 bits, 2^-3 ... 2^4": (1024, 3)}


def operand(rows, cols, g, top, spread):
    e = torch.randint(-spread, spread + 1, (rows, cols), generator=g, device="cuda").double()
    h = (top + torch.randint(0, top, (rows, cols), generator=g, device="cuda")).double() / top * torch.exp2(e)
    lo = (1024 + torch.randint(0, 1000, (rows, cols), generator=g, device="cuda")).double() * torch.exp2(e - 22)
    x = (h + lo).float()
    assert torch.equal(x.double(), h + lo)
    return x, h


def main():
    print("| h | k | cuBLAS | " + " | ".join(f"{m} {t}" for m in ("tf32tf32", "halfhalf") for t in (32, 64)) + " |")
    print("|---|---:|---:|" + "---:|" * 4)
    for kind, (top, spread) in KINDS.items():
        for k in (40, 96, 300, 1000):
            g = torch.Generator(device="cuda").manual_seed(k)
            a, ha = operand(70, k, g, top, spread)
            bt, hbt = operand(45, k, g, top, spread)
            b, hb = bt.t().contiguous(), hbt.t()
            ref = a.double() @ b.double()
            dropped = torch.linalg.norm((a.double() - ha) @ (b.double() - hb))
            cells = [torch.linalg.norm(torch.matmul(a, b).double() - ref) / dropped]
            for mode in ("tf32tf32", "halfhalf"):
                for tile in (32, 64):
                    os.environ["ECGEMM_FAMILY"] = f"fused_mma:{tile}/unsplit"
                    c = torch.full((70, 45), float("nan"), device="cuda")
                    ecgemm.matmul(a, b, mode=mode, out=c)
                    cells.append(torch.linalg.norm(c.double() - ref) / dropped)
            os.environ.pop("ECGEMM_FAMILY", None)
            print(f"| {kind} | {k} | " + " | ".join(f"{float(x):.2f}" for x in cells) + " |", flush=True)


if __name__ == "__main__":
    main()
