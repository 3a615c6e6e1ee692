"""PyTorch and CuPy float32 products in a process started under the cuBLAS interception
library (run by tests/test_intercept_gpu.py; usable by hand):

    LD_PRELOAD=$(python -m ecgemm --preload) ECGEMM_CUBLAS_VERBOSE=1 \\
        DISABLE_ADDMM_CUDA_LT=1 python tests/intercept_torch_check.py

Each case runs twice on the same inputs, interception off (through
``ecgemm.intercept_cublas(mode="off")``: cuBLAS SGEMM) and on (the mode the environment
set), between marker lines on stderr (``=== <case> off|on``) so that the library's
verbose lines can be told apart. Prints one JSON object: per case, both results'
relative Frobenius residuals against float64 and whether CUDA raised.
"""

from __future__ import annotations

import json
import sys

import torch

import ecgemm


def residual(x, reference) -> float:
    return float(torch.linalg.norm((x.double() - reference).flatten())
                 / torch.linalg.norm(reference.flatten()))


def seeded(*shape, seed, low=-1.0, high=1.0):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return torch.rand(shape, generator=g, device="cuda") * (high - low) + low


def torch_cases():
    a, b = seeded(1000, 700, seed=1), seeded(700, 900, seed=2)
    pa, pb = seeded(512, 2048, seed=3, low=0.5, high=1.5), seeded(2048, 384, seed=4, low=0.5, high=1.5)
    x, y = seeded(8, 300, 400, seed=5), seeded(8, 400, 200, seed=6)
    torch.manual_seed(0)
    linear = torch.nn.Linear(512, 384).cuda()
    linear_nb = torch.nn.Linear(512, 384, bias=False).cuda()
    inputs = seeded(1000, 512, seed=7)
    w, bias = linear.weight.detach().double(), linear.bias.detach().double()
    return {
        "torch.mm": (lambda: torch.mm(a, b), lambda: a.double() @ b.double()),
        "torch.mm positive": (lambda: torch.mm(pa, pb), lambda: pa.double() @ pb.double()),
        "torch.mm transposed": (lambda: torch.mm(b.T, a.T), lambda: b.double().T @ a.double().T),
        "torch.bmm": (lambda: torch.bmm(x, y), lambda: x.double() @ y.double()),
        "torch.nn.Linear": (lambda: linear(inputs).detach(),
                            lambda: inputs.double() @ w.T + bias),
        "torch.nn.Linear no bias": (lambda: linear_nb(inputs).detach(),
                                    lambda: inputs.double() @ linear_nb.weight.detach().double().T),
    }


def cupy_cases():
    try:
        import cupy
    except ImportError:
        return {}
    a = cupy.random.default_rng(1).random((900, 600), dtype=cupy.float32) * 2 - 1
    b = cupy.random.default_rng(2).random((600, 700), dtype=cupy.float32) * 2 - 1

    def as_torch(array):
        return torch.as_tensor(array, device="cuda")

    return {"cupy.matmul": (lambda: as_torch(cupy.matmul(a, b)),
                            lambda: as_torch(a).double() @ as_torch(b).double())}


def main() -> None:
    torch.backends.cuda.matmul.allow_tf32 = False  # FP32 products, as an FP32 application asks
    print(f"=== torch {torch.__version__} preferred BLAS "
          f"{torch.backends.cuda.preferred_blas_library()}", file=sys.stderr, flush=True)
    results = {}
    for name, (product, reference) in {**torch_cases(), **cupy_cases()}.items():
        outputs = {}
        for route in ("off", "on"):
            print(f"=== {name} {route}", file=sys.stderr, flush=True)
            if route == "off":
                with ecgemm.intercept_cublas(mode="off"):
                    outputs[route] = product()
                    torch.cuda.synchronize()
            else:
                outputs[route] = product()
                torch.cuda.synchronize()
        exact = reference()
        results[name] = {route: residual(out, exact) for route, out in outputs.items()}
    print("=== end", file=sys.stderr, flush=True)
    print(json.dumps(results))


if __name__ == "__main__":
    main()
