"""ecgemm.torch on DTensor over several GPUs (NCCL): every sharding of ecgemm::mm and
ecgemm::bmm, gradients, and a tensor-parallel ecgemm.torch.Linear.

Run on one host with two or more GPUs (NVLink multicast off, see README):

    NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 \\
        torchrun --nproc-per-node 2 tests/torch_dist_check.py

Each case must place its result as PyTorch places torch.mm's / torch.bmm's, and
equal the one-GPU ecgemm product within FP32 noise: with noise = the larger of the
one-GPU ecgemm product's and cuBLAS SGEMM's Frobenius error against float64,
‖C_dtensor − C_fp64‖_F ≤ 1.25 × noise and ‖C_dtensor − C_one_gpu‖_F ≤ 2.5 × noise
(gradients alike). Rank 0 prints one line per case and "N passed, N failed"; the
exit status is non-zero when a case failed on any rank.
"""

from __future__ import annotations

import copy
import itertools
import os
import sys
import traceback

import torch
import torch.distributed as dist
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.tensor import DTensor, Partial, Replicate, Shard, distribute_tensor
from torch.distributed.tensor.parallel import (ColwiseParallel, RowwiseParallel,
                                               parallelize_module)
from torch.utils._python_dispatch import TorchDispatchMode

TESTS = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [TESTS, os.path.dirname(TESTS)]  # tests/ and the repository root (bench/)
import ecgemm.torch as et  # noqa: E402
from bench.methods import set_tf32  # noqa: E402
from bench.torch_bench import train  # noqa: E402

MODES = ("tf32tf32", "halfhalf")


def rand(*shape, seed):
    """The same values on every rank (a seeded generator on this rank's GPU)."""
    g = torch.Generator(device="cuda").manual_seed(seed)
    return torch.rand(shape, generator=g, device="cuda") * 2 - 1


def place(t: torch.Tensor, mesh, placement) -> DTensor:
    """`t` (the same on every rank) as a DTensor with `placement` on a 1-D mesh."""
    if isinstance(placement, Partial):  # halves on each of two ranks sum to t exactly
        share = t * (1.0 / mesh.size())
        return DTensor.from_local(share, mesh, [placement], run_check=False)
    return distribute_tensor(t, mesh, [placement])


def frobenius(x: torch.Tensor, y: torch.Tensor) -> float:
    return float(torch.linalg.norm((x.double() - y.double()).flatten()))


NOISE_TO_FP64 = 1.25    # a sharded product may err 25% more than the worse one-GPU product
NOISE_TO_ONE_GPU = 2.5  # two products each within 1.25 x noise of float64


def check_noise(name: str, got, one_gpu, cublas, reference) -> str:
    """Assert that `got` is as accurate as a one-GPU float32 product; describe the errors."""
    noise = max(frobenius(one_gpu, reference), frobenius(cublas, reference))
    to_fp64, to_one = frobenius(got, reference), frobenius(got, one_gpu)
    assert to_fp64 <= NOISE_TO_FP64 * noise and to_one <= NOISE_TO_ONE_GPU * noise, \
        (name, to_fp64, to_one, noise)
    same = "bit-identical to one GPU" if to_one == 0.0 else f"|C-C1|={to_one:.3g}"
    return f"|C-C64|={to_fp64:.3g} (one GPU / cuBLAS worst {noise:.3g}), {same}"


class Checks:
    def __init__(self, rank: int):
        self.rank, self.passed, self.failed = rank, 0, 0

    def run(self, name: str, fn, *args) -> None:
        try:
            detail = fn(*args)
            ok = True
        except AssertionError as error:
            ok, detail = False, f"FAILED: {error}"
        except Exception:  # noqa: BLE001 - report and go on with the other cases
            ok, detail = False, "ERROR:\n" + traceback.format_exc()
        self.passed += ok
        self.failed += not ok
        if self.rank == 0:
            print(f"{'PASS' if ok else 'FAIL'} {name}: {detail}", flush=True)


def check_product(mesh, op: str, mode: str, a, b, pa, pb) -> str:
    ours_op, torch_op = getattr(et, op), getattr(torch, op)
    da, db = place(a, mesh, pa), place(b, mesh, pb)
    c = ours_op(da, db, mode=mode)
    expected = torch_op(da, db)
    assert c.placements == expected.placements, (c.placements, expected.placements)
    report = check_noise("C", c.full_tensor(), ours_op(a, b, mode=mode), torch_op(a, b),
                         a.double() @ b.double())
    return f"-> {c.placements[0]}, {report}"


def check_gradients(mesh, mode: str, pa, pb) -> str:
    a, b, g = rand(384, 640, seed=11), rand(640, 256, seed=12), rand(384, 256, seed=13)
    leaves = [t.clone().requires_grad_() for t in (a, b)]
    torch.autograd.backward(et.mm(*leaves, mode=mode), g)
    exact = [t.double().requires_grad_() for t in (a, b)]
    torch.autograd.backward(exact[0] @ exact[1], g.double())
    da = place(a, mesh, pa).requires_grad_()
    db = place(b, mesh, pb).requires_grad_()
    c = et.mm(da, db, mode=mode)
    c.full_tensor().backward(g)
    cublas = {"dA": g @ b.T, "dB": a.T @ g}
    report = []
    for (name, sgemm), dist_leaf, one, ref in zip(cublas.items(), (da, db), leaves, exact):
        noise = check_noise(name, dist_leaf.grad.full_tensor(), one.grad, sgemm, ref.grad)
        report.append(f"{name} {dist_leaf.grad.placements[0]} {noise}")
    return "; ".join(report)


class ProductRecorder(TorchDispatchMode):
    """The matrix products that reach the dispatcher (DTensor's local calls included)."""

    def __init__(self):
        super().__init__()
        self.products = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        if func.__name__.split(".")[0] in ("mm", "bmm", "addmm", "baddbmm"):
            self.products.append(str(func))
        return func(*args, **(kwargs or {}))


def check_tensor_parallel_linear(mesh, mode: str) -> str:
    torch.manual_seed(0)  # the same initial weights on every rank
    model = torch.nn.Sequential(et.Linear(512, 1024, device="cuda", mode=mode), torch.nn.GELU(),
                                et.Linear(1024, 256, device="cuda", mode=mode))
    single = copy.deepcopy(model)
    exact = copy.deepcopy(model).double()
    parallelize_module(model, mesh, {"0": ColwiseParallel(), "2": RowwiseParallel()})
    assert model[0].weight.placements == (Shard(0),), model[0].weight.placements
    assert model[2].weight.placements == (Shard(1),), model[2].weight.placements
    x, target = rand(8, 64, 512, seed=21), rand(8, 64, 256, seed=22)
    with ProductRecorder() as recorder:
        float(model(x).sum())  # waits for the output's all-reduce
    assert recorder.products and all(p.startswith("ecgemm.") for p in recorder.products), \
        recorder.products
    losses = {name: train(net, x.to(dtype), target.to(dtype), steps=4, lr=0.1)[0][-1]
              for name, net, dtype in (("tp", model, torch.float32),
                                       ("one", single, torch.float32),
                                       ("fp64", exact, torch.float64))}
    weight = model[0].weight.full_tensor()
    weight_gap = frobenius(weight, single[0].weight) / float(torch.linalg.norm(single[0].weight))
    gap_one = abs(losses["tp"] - losses["one"]) / losses["fp64"]
    gap_fp64 = abs(losses["tp"] - losses["fp64"]) / losses["fp64"]
    assert gap_one <= 1e-5 and gap_fp64 <= 1e-5 and weight_gap <= 1e-6, \
        (losses, weight_gap)
    return (f"loss after 4 SGD steps: TP {losses['tp']:.9g}, one GPU {losses['one']:.9g}, "
            f"fp64 {losses['fp64']:.9g}; |W_tp - W_one|/|W| = {weight_gap:.3g}; products "
            f"{sorted(set(recorder.products))}")


def main() -> int:
    rank = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(rank)
    dist.init_process_group("nccl", device_id=torch.device("cuda", rank))
    world = dist.get_world_size()
    mesh = init_device_mesh("cuda", (world,))
    set_tf32(torch, False)  # torch.mm: true FP32 SGEMM
    checks = Checks(rank)
    if rank == 0:
        print(f"{world} ranks, {torch.cuda.get_device_name()}, torch {torch.__version__}, "
              f"NCCL {torch.cuda.nccl.version()}", flush=True)

    mm_placements = [Replicate(), Shard(0), Shard(1), Partial()]
    for (m, k, n), mode in (((1024, 768, 512), "tf32tf32"), ((1001, 769, 515), "tf32tf32"),
                            ((1024, 768, 512), "halfhalf")):
        a, b = rand(m, k, seed=1), rand(k, n, seed=2)
        for pa, pb in itertools.product(mm_placements, repeat=2):
            checks.run(f"mm {m}x{k}x{n} {mode} a={pa} b={pb}", check_product, mesh, "mm", mode,
                       a, b, pa, pb)
    a3, b3 = rand(4, 256, 384, seed=3), rand(4, 384, 128, seed=4)
    bmm_placements = [Replicate(), Shard(0), Shard(1), Shard(2)]
    for pa, pb in itertools.product(bmm_placements, repeat=2):
        checks.run(f"bmm 4x256x384x128 tf32tf32 a={pa} b={pb}", check_product, mesh, "bmm",
                   "tf32tf32", a3, b3, pa, pb)
    for pa, pb in ((Shard(0), Replicate()), (Replicate(), Shard(1)), (Shard(1), Shard(0))):
        checks.run(f"gradients a={pa} b={pb}", check_gradients, mesh, "tf32tf32", pa, pb)
    for mode in MODES:
        checks.run(f"tensor-parallel Linear (Colwise, Rowwise) {mode}",
                   check_tensor_parallel_linear, mesh, mode)

    failed_anywhere = torch.tensor([checks.failed], device="cuda")
    dist.all_reduce(failed_anywhere, op=dist.ReduceOp.MAX)  # a case may fail on one rank only
    if rank == 0:
        print(f"{checks.passed} passed, {checks.failed} failed"
              + (f" (another rank failed {int(failed_anywhere)})"
                 if int(failed_anywhere) > checks.failed else ""), flush=True)
    dist.destroy_process_group()
    return 1 if int(failed_anywhere) else 0


if __name__ == "__main__":
    sys.exit(main())
