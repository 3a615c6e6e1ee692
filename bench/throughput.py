"""Throughput: every in-process method on each shape, SGEMM first (its time is the denominator of all ratios).

The first call on seeded urand(−1, 1) inputs is checked against FP64 (a fast wrong kernel is not a result);
then the same call is timed, rotating operand sets when one set would fit in L2.
"""
from bench import inputs
from bench.accuracy import fp64_reference, relative_residual, to_device
from bench.methods import SGEMM
from bench.profiles import gemm_flops, shape_label
from bench.timing import rotation_sets, time_cuda

MEMORY_HEADROOM = 0.85  # of the free device memory, to leave room for workspaces and the allocator


def bytes_needed(shape, sets):
    """Operands and outputs of every set, the FP64 reference and its residual temporaries, FP16 scratch."""
    m, k, n = shape
    fp32_set = 4 * (m * k + k * n + m * n)
    return sets * fp32_set + 8 * (m * k + k * n + 2 * m * n) + fp32_set // 2


def run_throughput(ctx):
    torch = ctx.torch
    names = [SGEMM] + [n for n in ctx.methods.names if n != SGEMM] if SGEMM in ctx.methods.names \
        else ctx.methods.names
    for shape in ctx.profile.shapes:
        label = shape_label(shape)
        m, k, n = shape
        sets = rotation_sets(4 * (m * k + k * n + m * n), ctx.l2_bytes)
        free = torch.cuda.mem_get_info()[0]
        if bytes_needed(shape, sets) > MEMORY_HEADROOM * free:
            ctx.note(f"throughput {label} skipped: needs {bytes_needed(shape, sets) / 2**30:.1f} GiB, "
                     f"{free / 2**30:.1f} GiB free")
            continue
        if ctx.deadline.expired():
            ctx.note(f"throughput {label} skipped: time budget spent")
            continue
        a, b = inputs.throughput_pair(m, k, n)
        a, b = to_device(torch, a), to_device(torch, b)
        ref = fp64_reference(torch, a, b)
        ref_norm = torch.linalg.vector_norm(ref).item()
        # Extra operand sets only feed the timing loop; the first set is the checked one.
        operands = [(a, b)] + [(torch.rand_like(a) * 2 - 1, torch.rand_like(b) * 2 - 1) for _ in range(sets - 1)]
        for name in names:
            if ctx.deadline.expired():
                ctx.note(f"throughput {label} {name} skipped: time budget spent")
                continue
            ctx.results["throughput"].append(_measure(ctx, name, shape, operands, ref, ref_norm))
        del a, b, ref, operands
        torch.cuda.empty_cache()


def _measure(ctx, name, shape, operands, ref, ref_norm):
    torch = ctx.torch
    row = {"method": name, "shape": list(shape)}
    try:
        outs = [torch.empty((shape[0], shape[2]), device="cuda", dtype=torch.float32) for _ in operands]
        outs[0].fill_(float("nan"))  # poison: an unwritten element makes the residual NaN
        calls = [ctx.methods.bind(name, a, b, out) for (a, b), out in zip(operands, outs)]
        calls[0]()
        torch.cuda.synchronize()
        row["residual"] = relative_residual(torch, outs[0], ref, ref_norm)
        timing = time_cuda(calls, ctx.profile.case_budget_s, ctx.profile.warmup_s)
    except Exception as exc:  # noqa: BLE001  (one broken method must not stop the others)
        row.setdefault("residual", None)
        row["error"] = f"{type(exc).__name__}: {exc}"[:300]
        ctx.progress(f"{name:16s} {shape_label(shape):>18s}  error: {row['error']}")
        return row
    row.update(ms=timing.median_ms, tflops=gemm_flops(shape) / timing.median_ms / 1e9, timing=timing.as_dict(),
               host_bound=timing.host_bound)
    ctx.progress(f"{name:16s} {shape_label(shape):>18s}  {timing.median_ms:9.3f} ms  {row['tflops']:7.1f} TFLOP/s"
                 f"  residual {row['residual']:.2e}")
    return row


def recheck(ctx, name, shape):
    """Median ms of one method on one shape, timed again (same inputs and budget as the first time)."""
    torch = ctx.torch
    m, k, n = shape
    a, b = (to_device(torch, x) for x in inputs.throughput_pair(m, k, n))
    out = torch.empty((m, n), device="cuda", dtype=torch.float32)
    ms = time_cuda([ctx.methods.bind(name, a, b, out)], ctx.profile.case_budget_s, ctx.profile.warmup_s).median_ms
    del a, b, out
    torch.cuda.empty_cache()
    return ms
