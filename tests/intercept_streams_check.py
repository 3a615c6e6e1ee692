"""PyTorch float32 products on several streams at once, in a process started under the
cuBLAS interception library (run by tests/test_intercept_gpu.py; usable by hand):

    LD_PRELOAD=$(python -m ecgemm --preload) ECGEMM_CUBLAS_VERBOSE=1 ECGEMM_CUBLAS_MODE=halfhalf \\
        DISABLE_ADDMM_CUDA_LT=1 python tests/intercept_streams_check.py

PyTorch keeps one cuBLAS handle per thread and device and points it at the current
stream before each call, so products issued on several streams of one thread reach one
ecgemm handle, which must not share scratch memory between them. Every case (torch.mm,
torch.bmm, nn.Linear forward and backward: autograd runs the backward products on its
own device thread, on the forward's streams) first runs alone, one call at a time; then
2, 3 and 4 streams each get every case, on operands of their own, issued round-robin
without waiting, so that calls are in flight on all of them. Every output must be
bit-identical to the same call made alone. Marker lines on stderr (`=== alone`,
`=== streams <n>`, `=== end`) frame the library's verbose lines. Prints one JSON object:
mismatches per stream count and case, the error if CUDA raised one, and per case the
plan ecgemm.explain gives for its first product, where the installed ecgemm has it.
"""

from __future__ import annotations

import itertools
import json
import os
import sys
from dataclasses import dataclass
from typing import Callable, Dict, List, Tuple

import torch

SLOTS = 4  # the most streams used at once; each has operands of its own
ROUNDS = 3
_seeds = itertools.count(1)


def seeded(*shape: int) -> torch.Tensor:
    g = torch.Generator(device="cuda").manual_seed(next(_seeds))
    return torch.rand(shape, generator=g, device="cuda") * 2 - 1


@dataclass
class Case:
    name: str
    run: Callable[[int], List[torch.Tensor]]  # slot -> outputs
    first_product: Callable[[], Tuple[torch.Tensor, torch.Tensor]]  # its operands, slot 0


def mm(m: int, k: int, n: int, transposed: bool = False) -> Case:
    if transposed:  # stored as A^T (k x m) and B^T (n x k): torch.mm(a.T, b.T)
        ops = [(seeded(k, m).T, seeded(n, k).T) for _ in range(SLOTS)]
    else:
        ops = [(seeded(m, k), seeded(k, n)) for _ in range(SLOTS)]
    name = f"mm{' transposed' if transposed else ''} {m}x{k}x{n}"
    return Case(name, lambda slot: [torch.mm(*ops[slot])], lambda: ops[0])


def bmm(batch: int, m: int, k: int, n: int) -> Case:
    ops = [(seeded(batch, m, k), seeded(batch, k, n)) for _ in range(SLOTS)]
    return Case(f"bmm {batch}x{m}x{k}x{n}", lambda slot: [torch.bmm(*ops[slot])],
                lambda: (ops[0][0][0], ops[0][1][0]))


def linear(rows: int, k: int, n: int, bias: bool) -> Case:
    """Forward (addmm with a bias, mm without) and the backward products: the input's
    gradient (g W) and the weight's (g^T x). The bias gradient is a reduction, not a
    product, and is left out."""
    layers, xs, gs = [], [], []
    for slot in range(SLOTS):
        torch.manual_seed(100 + slot)
        layers.append(torch.nn.Linear(k, n, bias=bias).cuda())
        xs.append(seeded(rows, k))
        gs.append(seeded(rows, n))

    def step(slot: int) -> List[torch.Tensor]:
        x = xs[slot].detach().requires_grad_(True)
        y = layers[slot](x)
        dx, dw = torch.autograd.grad(y, (x, layers[slot].weight), gs[slot])
        return [y.detach(), dx, dw]

    return Case(f"linear {k}->{n}{' bias' if bias else ''} rows={rows}", step,
                lambda: (xs[0], layers[0].weight.detach().T))


def cases() -> List[Case]:
    return [mm(4096, 4096, 4096), mm(2048, 2048, 2048), mm(3000, 1500, 2500),
            mm(2048, 3072, 1024, transposed=True), bmm(4, 2048, 2048, 2048),
            bmm(16, 640, 768, 512), linear(4096, 2048, 4096, bias=True),
            linear(2048, 3072, 1536, bias=False)]


def plans(all_cases: List[Case]) -> Dict[str, str]:
    try:
        import ecgemm
        explain = ecgemm.explain
    except (ImportError, AttributeError) as error:
        return {"unavailable": repr(error)}
    mode = os.environ.get("ECGEMM_CUBLAS_MODE", "tf32tf32")
    found = {}
    for case in all_cases:
        try:
            found[case.name] = explain(*case.first_product(), mode=mode)
        except Exception as error:  # reported, not hidden: the wrapper decides
            found[case.name] = f"error: {error!r}"
    return found


def main() -> None:
    torch.backends.cuda.matmul.allow_tf32 = False  # FP32 products, as an FP32 application asks
    all_cases = cases()
    torch.cuda.synchronize()
    result = {"plans": plans(all_cases), "mismatches": {}, "error": None}
    try:
        print("=== alone", file=sys.stderr, flush=True)
        alone = {}
        for case in all_cases:
            for slot in range(SLOTS):
                alone[case.name, slot] = case.run(slot)
                torch.cuda.synchronize()
        streams = [torch.cuda.Stream() for _ in range(SLOTS)]
        for count in (2, 3, 4):
            print(f"=== streams {count}", file=sys.stderr, flush=True)
            for stream in streams:
                stream.wait_stream(torch.cuda.current_stream())
            outputs = []
            for _ in range(ROUNDS):
                for case in all_cases:
                    for slot in range(count):
                        with torch.cuda.stream(streams[slot]):
                            outputs.append((case.name, slot, case.run(slot)))
            torch.cuda.synchronize()
            mismatches = {case.name: 0 for case in all_cases}
            for name, slot, outs in outputs:
                mismatches[name] += not all(torch.equal(out, ref)
                                            for out, ref in zip(outs, alone[name, slot]))
            result["mismatches"][str(count)] = mismatches
    except RuntimeError as error:  # a CUDA error: reported, the wrapper fails on it
        result["error"] = str(error)
    print("=== end", file=sys.stderr, flush=True)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
