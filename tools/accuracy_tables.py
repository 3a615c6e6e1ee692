"""Residual tables of every mode against cuBLAS SGEMM's, through the C ABI.

PyTorch holds device memory, computes the FP64 reference and runs cuBLAS SGEMM on the same
inputs. Writes accuracy.md and accuracy.json (--out, default $OUT):
- urand(-1, 1), m = n in --sizes, k in --ks: residual per mode and its ratio to SGEMM's;
- the paper's exponent types 1-4 (docs/numerics.md, "Range") at 256 x 1024 x 256.
"""
import ctypes
import json
import os

from tools import _common
from _capi import MODES, load  # noqa: E402

# The paper's exponent types: (A's, B's) exponent range of exp_rand (docs/numerics.md).
EXP_TYPES = {1: ((-15, 14), (-15, 14)), 2: ((-15, 14), (-100, -35)),
             3: ((-35, -15), (-35, -15)), 4: ((-100, -35), (-100, -35))}


def exp_rand(shape, lo, hi, gen):
    """sign * m * 2^e, e ~ UniformInt[lo, hi], m ~ U[1, 2) (the paper's test matrices)."""
    import torch
    e = torch.randint(lo, hi + 1, shape, device="cuda", generator=gen, dtype=torch.int32)
    m = 1 + torch.rand(shape, device="cuda", generator=gen, dtype=torch.float64)
    s = torch.where(torch.rand(shape, device="cuda", generator=gen) < 0.5, -1.0, 1.0).double()
    return (s * m * torch.pow(2.0, e.double())).float()


class Runner:
    def __init__(self):
        self.lib = load()
        self.h = ctypes.c_void_p()
        assert self.lib.ecgemm_create(ctypes.byref(self.h)) == 0
        self.one, self.zero = ctypes.c_float(1.0), ctypes.c_float(0.0)

    def matmul(self, mode, a, b):
        """a @ b for row-major torch matrices (C^T = B^T A^T in column-major terms)."""
        import torch
        m, k = a.shape
        n = b.shape[1]
        c = torch.full((m, n), float("nan"), device="cuda")
        self.lib.ecgemm_set_mode(self.h, MODES[mode])
        st = self.lib.ecgemm_sgemm(self.h, 0, 0, n, m, k, ctypes.addressof(self.one), b.data_ptr(), n,
                                   a.data_ptr(), k, ctypes.addressof(self.zero), c.data_ptr(), n)
        assert st == 0, st
        torch.cuda.synchronize()
        return c


def residual(c, ref):
    import torch
    d = torch.linalg.norm((c.double() - ref).flatten()).item()
    r = torch.linalg.norm(ref.flatten()).item()
    return d / r if r else float("nan")


def cublas_sgemm(a, b):
    import torch
    torch.backends.cuda.matmul.allow_tf32 = False
    return a @ b


def row(runner, a, b):
    ref = a.double() @ b.double()
    out = {"cublas_sgemm": residual(cublas_sgemm(a, b), ref)}
    for mode in MODES:
        out[mode] = residual(runner.matmul(mode, a, b), ref)
    return out


def add_arguments(p):
    p.add_argument("--out", default="", help="folder for accuracy.md and accuracy.json (default $OUT)")
    p.add_argument("--sizes", default="64,1024,4096", help="m = n of the urand cases")
    p.add_argument("--ks", default="256,1024,4096,16384,65536", help="k of the urand cases")


def run(args):
    import torch
    out = args.out or str(_common.out_dir())
    os.makedirs(out, exist_ok=True)
    runner = Runner()
    gen = torch.Generator(device="cuda").manual_seed(2026)
    results = {"device": torch.cuda.get_device_name(), "torch": torch.__version__,
               "urand": [], "exp_rand": []}
    modes = ["cublas_sgemm"] + list(MODES)
    lines = [f"# ecgemm accuracy on {results['device']}", "",
             "Relative Frobenius residual vs an FP64 product of the same FP32 inputs; "
             "(×) = ratio to cuBLAS SGEMM's residual on the same inputs.", "",
             "## urand(-1, 1), m = n, k varies", "",
             "| m = n | k | " + " | ".join(modes) + " |", "|---" * (len(modes) + 2) + "|"]
    for size in map(int, args.sizes.split(",")):
        for k in map(int, args.ks.split(",")):
            a = torch.rand(size, k, device="cuda", generator=gen) * 2 - 1
            b = torch.rand(k, size, device="cuda", generator=gen) * 2 - 1
            r = row(runner, a, b)
            results["urand"].append({"m": size, "n": size, "k": k, **r})
            cells = [f"{r['cublas_sgemm']:.2e}"] + [f"{r[m]:.2e} ({r[m] / r['cublas_sgemm']:.2f}×)" for m in MODES]
            lines.append(f"| {size} | {k} | " + " | ".join(cells) + " |")
            print(lines[-1], flush=True)
            del a, b
    lines += ["", "## exp_rand types (256 × 1024 × 256)", "",
              "| type | A exponents | B exponents | " + " | ".join(modes) + " |", "|---" * (len(modes) + 3) + "|"]
    for t, ((a0, a1), (b0, b1)) in EXP_TYPES.items():
        a = exp_rand((256, 1024), a0, a1, gen)
        b = exp_rand((1024, 256), b0, b1, gen)
        r = row(runner, a, b)
        results["exp_rand"].append({"type": t, "a_exp": [a0, a1], "b_exp": [b0, b1], **r})
        cells = [f"{r['cublas_sgemm']:.2e}"] + [f"{r[m]:.2e} ({r[m] / r['cublas_sgemm']:.2f}×)" for m in MODES]
        lines.append(f"| {t} | [{a0}, {a1}] | [{b0}, {b1}] | " + " | ".join(cells) + " |")
        print(lines[-1], flush=True)
    with open(os.path.join(out, "accuracy.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    with open(os.path.join(out, "accuracy.json"), "w") as f:
        json.dump(results, f, indent=1)
    return 0
