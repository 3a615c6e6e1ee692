"""ecgemm.torch against PyTorch's own FP32 products (cuBLAS SGEMM, TF32 off).

One GPU, a float32 MLP training step (3 linear layers of 8192, batch 8192: forward,
backward and an SGD update), ``ecgemm.torch.Linear`` against ``torch.nn.Linear``:

    python -m bench.torch_bench mlp --out DIR

Several GPUs of one host, a 32768 x 32768 x 32768 product sharded with DTensor,
``ecgemm::mm`` against ``torch.mm`` on the same DTensors, and the fraction of
(number of GPUs) x one GPU's ecgemm throughput at the same per-GPU shape:

    NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 \\
        torchrun --nproc-per-node 2 -m bench.torch_bench dtensor --out DIR

Each writes a JSON file and a Markdown table to DIR and prints the table.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import sys
import time

import torch
import torch.nn.functional as F

import ecgemm.torch as et
from bench.env import collect
from bench.methods import set_tf32
from bench.timing import time_cuda


def seeded(*shape, seed, dtype=torch.float32):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.rand(shape, generator=g, device="cuda") * 2 - 1).to(dtype)


def write(out_dir: str, name: str, results: dict, table: str) -> None:
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, f"{name}.json"), "w") as f:
        json.dump(results, f, indent=1, default=str)
    with open(os.path.join(out_dir, f"{name}.md"), "w") as f:
        f.write(table)
    print(table, flush=True)


# ---- one GPU: the MLP training step -------------------------------------------------

def mlp(width: int, layers: int) -> torch.nn.Sequential:
    blocks = []
    for i in range(layers):
        blocks.append(torch.nn.Linear(width, width))
        if i < layers - 1:
            blocks.append(torch.nn.ReLU())
    return torch.nn.Sequential(*blocks)


def with_ecgemm(model: torch.nn.Module, mode: str) -> torch.nn.Module:
    """A copy of `model` whose torch.nn.Linear layers are ecgemm.torch.Linear."""
    model = copy.deepcopy(model)
    for name, child in model.named_children():
        if type(child) is torch.nn.Linear:
            setattr(model, name, et.Linear.from_linear(child, mode=mode))
    return model


def train(model, x, target, steps, lr):
    """Losses of `steps` SGD steps (forward, backward, update) on one batch."""
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    losses = []

    def step():
        opt.zero_grad(set_to_none=True)
        loss = F.mse_loss(model(x), target)
        loss.backward()
        opt.step()
        return loss

    for _ in range(steps):
        losses.append(float(step().detach()))
    return losses, step


def update_error(model, base, exact) -> float:
    """Largest relative error, over the parameters, of the change training made, against fp64's."""
    worst = 0.0
    for p, p0, p64 in zip(model.parameters(), base.parameters(), exact.parameters()):
        change, change64 = p.detach().double() - p0.detach().double(), p64.detach() - p0.detach().double()
        worst = max(worst, float(torch.linalg.norm(change - change64) / torch.linalg.norm(change64)))
    return worst


def run_mlp(args) -> None:
    set_tf32(torch, False)
    torch.manual_seed(0)
    base = mlp(args.width, args.layers).cuda()
    torch.manual_seed(1)
    teacher = mlp(args.width, args.layers).cuda().double()  # a target the student can learn
    x = seeded(args.batch, args.width, seed=1)
    with torch.no_grad():
        target = teacher(x.double()).float()
    del teacher
    # Per layer a forward product and dW; dX for all but the first (x needs no gradient).
    flop_per_step = 2 * args.batch * args.width * args.width * (3 * args.layers - 1)

    exact = copy.deepcopy(base).double()
    fp64_losses, _ = train(exact, x.double(), target.double(), args.steps, args.lr)
    rows = []
    for label, model in [("torch.nn.Linear (cuBLAS SGEMM)", copy.deepcopy(base))] + [
            (f"ecgemm.torch.Linear {mode}", with_ecgemm(base, mode)) for mode in args.modes]:
        losses, step = train(model, x, target, args.steps, args.lr)
        drift = update_error(model, base, exact)
        timing = time_cuda([step], args.budget, 1.0)
        rows.append({"method": label, "median_ms": timing.median_ms,
                     "tflops": flop_per_step / timing.median_ms / 1e9, "losses": losses,
                     "final_loss": losses[-1],
                     "loss_gap_to_fp64": abs(losses[-1] - fp64_losses[-1]) / fp64_losses[-1],
                     "update_error_vs_fp64": drift,
                     "timing": timing.as_dict()})
        del model, step
        torch.cuda.empty_cache()
    reference_ms = rows[0]["median_ms"]
    for row in rows:
        row["speedup"] = reference_ms / row["median_ms"]
    results = {"benchmark": "mlp", "width": args.width, "layers": args.layers,
               "batch": args.batch, "steps": args.steps, "lr": args.lr,
               "fp64_losses": fp64_losses, "rows": rows, "env": collect(torch, None)}
    lines = [f"MLP training step on {torch.cuda.get_device_name()}: {args.layers} x "
             f"Linear({args.width}, {args.width}), batch {args.batch}, forward + backward + SGD, "
             f"float32, TF32 off",
             "",
             f"Student MLP fitting a random teacher MLP, MSE, SGD lr {args.lr}; loss at step 1: "
             f"{fp64_losses[0]:.6g} (fp64). Update error: max over parameters of "
             f"|dW - dW_fp64| / |dW_fp64| after {args.steps} steps (dW = W_final - W_initial).",
             "",
             "| method | ms / step | TFLOP/s (GEMMs) | speedup | loss after "
             f"{args.steps} steps | rel. gap to fp64 | update error |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        lines.append(f"| {r['method']} | {r['median_ms']:.2f} | {r['tflops']:.1f} | "
                     f"{r['speedup']:.2f}x | {r['final_loss']:.9g} | {r['loss_gap_to_fp64']:.2e} | "
                     f"{r['update_error_vs_fp64']:.2e} |")
    lines.append(f"| float64 reference | | | | {fp64_losses[-1]:.9g} | | |")
    write(args.out, "mlp", results, "\n".join(lines) + "\n")


# ---- several GPUs: the DTensor product ----------------------------------------------

def timed(fn, repeats: int, group_sync) -> float:
    """Seconds per call of `fn` on every rank at once: one warm-up call, then `repeats`."""
    fn()
    torch.cuda.synchronize()
    group_sync()
    start = time.perf_counter()
    for _ in range(repeats):
        fn()
    torch.cuda.synchronize()
    group_sync()  # the slowest rank decides
    return (time.perf_counter() - start) / repeats


def row_residual(c_rows, a_rows, b) -> float:
    reference = a_rows.double() @ b.double()
    return float(torch.linalg.norm(c_rows.double() - reference) / torch.linalg.norm(reference))


def run_dtensor(args) -> None:
    import torch.distributed as dist
    from torch.distributed.device_mesh import init_device_mesh
    from torch.distributed.tensor import DTensor, Replicate, Shard

    rank = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(rank)
    dist.init_process_group("nccl", device_id=torch.device("cuda", rank))
    world = dist.get_world_size()
    mesh = init_device_mesh("cuda", (world,))
    set_tf32(torch, False)
    n, part = args.size, args.size // world
    flop = 2.0 * n ** 3

    def barrier():
        dist.barrier(device_ids=[rank])

    results = {"benchmark": "dtensor", "size": n, "world": world, "repeats": args.repeats,
               "rows": []}

    def record(case, method, seconds, total_flop, residual=None):
        row = {"case": case, "method": method, "s_per_call": seconds,
               "tflops": total_flop / seconds / 1e12, "residual_rows": residual}
        results["rows"].append(row)
        if rank == 0:
            print(f"{case:<34} {method:<22} {seconds * 1e3:9.1f} ms {row['tflops']:8.1f} TFLOP/s"
                  + (f"  residual {residual:.2e}" if residual is not None else ""), flush=True)

    # Rows of A sharded, B replicated: C comes out row-sharded, no communication.
    a_local = seeded(part, n, seed=100 + rank)
    b = seeded(n, n, seed=7)
    da = DTensor.from_local(a_local, mesh, [Shard(0)], run_check=False)
    db = DTensor.from_local(b, mesh, [Replicate()], run_check=False)
    check = slice(0, 256)
    for mode in args.modes:
        c = et.mm(da, db, mode=mode)
        residual = row_residual(c.to_local()[check], a_local[check], b)
        del c
        record("rows of A sharded (S0 x R)", f"ecgemm::mm {mode}",
               timed(lambda: et.mm(da, db, mode=mode), args.repeats, barrier), flop, residual)
    c = torch.mm(da, db)
    residual = row_residual(c.to_local()[check], a_local[check], b)
    del c
    record("rows of A sharded (S0 x R)", "torch.mm (SGEMM)",
           timed(lambda: torch.mm(da, db), args.repeats, barrier), flop, residual)

    # One GPU alone at the per-GPU shape (the others wait), in the same run.
    for mode in args.modes:
        seconds = None
        if rank == 0:
            seconds = timed(lambda: et.mm(a_local, b, mode=mode), args.repeats, lambda: None)
        barrier()
        box = [seconds]
        dist.broadcast_object_list(box, src=0)
        record(f"one GPU, {part}x{n}x{n}", f"ecgemm::mm {mode}", box[0], flop / world)
    da = db = a_local = b = None  # free 8 GiB before the next case
    torch.cuda.empty_cache()

    # Contraction sharded: partial sums, reduce-scattered by DTensor (NCCL) to row shards.
    a_local = seeded(n, part, seed=200 + rank)
    b_local = seeded(part, n, seed=300 + rank)
    da = DTensor.from_local(a_local, mesh, [Shard(1)], run_check=False)
    db = DTensor.from_local(b_local, mesh, [Shard(0)], run_check=False)
    for mode in args.modes[:1]:
        record("k sharded (S1 x S0) + reduce-scatter", f"ecgemm::mm {mode}",
               timed(lambda: et.mm(da, db, mode=mode).redistribute(mesh, [Shard(0)]).to_local(),
                     args.repeats, barrier), flop)
    record("k sharded (S1 x S0) + reduce-scatter", "torch.mm (SGEMM)",
           timed(lambda: torch.mm(da, db).redistribute(mesh, [Shard(0)]).to_local(),
                 args.repeats, barrier), flop)

    rows = results["rows"]
    by = {(r["case"], r["method"]): r for r in rows}
    lines = [f"DTensor product {n} x {n} x {n} on {world} x {torch.cuda.get_device_name()} "
             f"(float32, TF32 off, {args.repeats} timed calls after one warm-up, wall clock "
             f"of the slowest rank)", "",
             "| case | method | ms / call | TFLOP/s | vs torch.mm | of world x one GPU | "
             "residual (256 rows) |", "|---|---|---:|---:|---:|---:|---:|"]
    for r in rows:
        case_torch = by.get((r["case"], "torch.mm (SGEMM)"))
        one = by.get((f"one GPU, {part}x{n}x{n}", r["method"]))
        ratio = f"{case_torch['s_per_call'] / r['s_per_call']:.2f}x" if case_torch else ""
        fraction = (f"{r['tflops'] / (world * one['tflops']):.1%}"
                    if one and not r["case"].startswith("one GPU") else "")
        residual = f"{r['residual_rows']:.2e}" if r["residual_rows"] is not None else ""
        lines.append(f"| {r['case']} | {r['method']} | {r['s_per_call'] * 1e3:.1f} | "
                     f"{r['tflops']:.1f} | {ratio} | {fraction} | {residual} |")
    if rank == 0:
        results["env"] = collect(torch, None)
        write(args.out, "dtensor", results, "\n".join(lines) + "\n")
    dist.destroy_process_group()


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="what", required=True)
    p = sub.add_parser("mlp", help="one GPU: MLP training step")
    p.add_argument("--width", type=int, default=8192)
    p.add_argument("--layers", type=int, default=3)
    p.add_argument("--batch", type=int, default=8192)
    p.add_argument("--steps", type=int, default=10, help="SGD steps whose losses are compared")
    p.add_argument("--lr", type=float, default=40.0,
                   help="large because MSE averages over batch x width outputs")
    p.add_argument("--budget", type=float, default=3.0, help="seconds of timed steps per method")
    p.add_argument("--modes", nargs="+", default=["tf32tf32", "halfhalf"])
    p.add_argument("--out", default="bench/results/torch")
    p.set_defaults(run=run_mlp)
    d = sub.add_parser("dtensor", help="several GPUs (torchrun): a DTensor product")
    d.add_argument("--size", type=int, default=32768)
    d.add_argument("--repeats", type=int, default=3)
    d.add_argument("--modes", nargs="+", default=["tf32tf32", "halfhalf"])
    d.add_argument("--out", default="bench/results/torch")
    d.set_defaults(run=run_dtensor)
    args = parser.parse_args(argv)
    if not torch.cuda.is_available():
        sys.exit("bench.torch_bench needs a CUDA GPU")
    args.run(args)


if __name__ == "__main__":
    main()
