"""The GPU's practical read rate, as a plain reduction reaches it: torch.amax over the
bytes AUTO's statistics pass reads (two n x n FP32 operands), in the same process as
bench.auto. python tools/read_rate.py [--sizes 4096,8192]"""
import argparse

import torch

from bench.timing import gpu_ms


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--sizes", default="4096,8192")
    sizes = [int(s) for s in p.parse_args().sizes.split(",")]
    out = torch.empty((), device="cuda")
    for n in sizes:
        a, b = torch.rand(n, n, device="cuda"), torch.rand(n, n, device="cuda")
        both = torch.rand(2 * n, n, device="cuda")
        mib = 2 * n * n * 4 / 2**20
        two = gpu_ms(torch, lambda: (torch.amax(a, out=out), torch.amax(b, out=out)), batches=15, calls=20)
        one = gpu_ms(torch, lambda: torch.amax(both, out=out), batches=15, calls=20)
        for label, ms in (("torch.amax of each operand", two), ("torch.amax of one 2n x n tensor", one)):
            print(f"n={n}: {label}, {mib:.0f} MiB: {ms * 1e3:.1f} us = {mib * 2**20 / ms / 1e9:.2f} TB/s")


if __name__ == "__main__":
    main()
