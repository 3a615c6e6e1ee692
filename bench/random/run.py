"""One run of the random sample (or of one shard of it): the results dict, checkpointed as it grows."""
import time

from bench import report as bench_report
from bench.random import sample as smp
from bench.random.measure import Measurer, progress, summary_line, warm_up

SCHEMA = "ecgemm-bench-random/1"
CHECKPOINT_S = 20.0          # results.json is rewritten this often, so a killed run keeps its cases
DEADLINE_FACTOR = 2.0        # default deadline: this many times the shard's estimate, plus DEADLINE_SLACK_S
DEADLINE_SLACK_S = 60.0


def new_results(sample, shard, positive, families=()):
    return {"schema": SCHEMA, "started_utc": bench_report._utc_now(), "sample": sample.description,
            "shard": list(shard) if shard else None, "modes": list(sample.modes), "families": list(families),
            "inputs": "uniform(0, 1)" if positive else "uniform(-1, 1)",
            "reference": {"gemm": "cuBLAS SGEMM (torch.matmul, TF32 off)",
                          "batched": "cuBLAS strided-batched SGEMM (torch.bmm, TF32 off)"},
            "plan": {"round_target_ms": smp.ROUND_TARGET_MS, "max_calls_per_round": smp.MAX_CALLS_PER_ROUND,
                     "rounds": [smp.MIN_ROUNDS, smp.MAX_ROUNDS], "e2e_repetitions": [smp.MIN_E2E, smp.MAX_E2E],
                     "prefill_ms": f"max({smp.PREFILL_MIN_MS}, {smp.PREFILL_HOST_FACTOR} x issue time of a round)"},
            "env": {}, "clocks": [], "gemm": [], "batched": [], "notes": []}


def shard_cases(sample, shard):
    """(2-D cases, batched cases) of the shard (i, n), or of the whole sample when shard is None."""
    if shard is None:
        return list(sample.gemm), list(sample.batched)
    methods = smp.methods_of(sample.modes)
    return (smp.shard(list(sample.gemm), *shard, methods), smp.shard(list(sample.batched), *shard, methods))


def run(sample, shard, positive, max_minutes, checkpoint_path, families=()):
    try:
        import torch
    except ImportError:
        raise SystemExit("bench.random: measuring needs PyTorch with CUDA (re-rendering a saved run does not: "
                         "--from-json)") from None
    if not torch.cuda.is_available():
        raise SystemExit("bench.random: no CUDA GPU is visible to torch; nothing to measure")
    import ecgemm
    from bench import env as envmod

    gemm, batched = shard_cases(sample, shard)
    methods = smp.methods_of(sample.modes)
    estimate = sum(smp.case_seconds(c, methods) for c in gemm + batched)
    deadline_s = max_minutes * 60 if max_minutes else DEADLINE_FACTOR * estimate + DEADLINE_SLACK_S
    results = new_results(sample, shard, positive, families)
    results["estimated_s"] = estimate
    results["deadline_s"] = deadline_s
    t0 = time.monotonic()
    torch.matmul(torch.ones(8, 8, device="cuda"), torch.ones(8, 8, device="cuda"))  # load cuBLAS for env.collect
    nvml = _open_nvml(envmod.pci_bus_id(torch), results)
    results["env"] = envmod.collect(torch, nvml)
    results["explain"] = hasattr(ecgemm, "explain")
    if not results["explain"]:
        results["notes"].append("ecgemm.explain is absent in this build: routes are recorded as 'unknown'")
    _snapshot(nvml, results, "start", t0)
    progress(t0, f"{results['env'].get('gpu')}: {len(gemm)} shapes + {len(batched)} batches"
                 + (f" (shard {shard[0]}/{shard[1]})" if shard else "")
                 + f", estimated {estimate:.0f} s, deadline {deadline_s:.0f} s")
    warm_up(torch)
    measurer = Measurer(torch, ecgemm, sample.modes, positive, sample.seed, families=families)
    results["env"]["torch_fp32_matmul"] = _fp32_precision(torch)
    last_write = time.monotonic()
    todo = interleave([("gemm", c, measurer.gemm_case) for c in gemm],
                      [("batched", c, measurer.batched_case) for c in batched])
    for i, (section, case, measure) in enumerate(todo):
        if time.monotonic() - t0 > deadline_s:
            skipped = [c.id for _, c, _ in todo[i:]]
            results["notes"].append(f"deadline of {deadline_s:.0f} s reached: {len(skipped)} cases not measured "
                                    f"({', '.join(skipped[:20])}{' …' if len(skipped) > 20 else ''})")
            progress(t0, results["notes"][-1])
            break
        try:
            row = measure(case)
        except Exception as exc:  # noqa: BLE001  (e.g. out of memory making the operands: the case is an error)
            torch.cuda.synchronize()   # a sticky CUDA error raises here and ends the run
            row = {**case.as_dict(), "error": f"{type(exc).__name__}: {exc}"[:300], "methods": {}}
        measurer.release(case)
        results[section].append(row)
        progress(t0, f"{i + 1}/{len(todo)} {case.label()} " + summary_line(row, sample.modes))
        if checkpoint_path is not None and time.monotonic() - last_write > CHECKPOINT_S:
            results["elapsed_s"] = round(time.monotonic() - t0, 1)
            bench_report.write_json(results, checkpoint_path)
            last_write = time.monotonic()
    _snapshot(nvml, results, "end", t0)
    results["elapsed_s"] = round(time.monotonic() - t0, 1)
    return results


def interleave(*lists):
    """The items of every list, each list spread evenly over the whole (a deadline then cuts all alike)."""
    keyed = [((i + 0.5) / len(items), j, item) for j, items in enumerate(lists) for i, item in enumerate(items)]
    return [item for _, _, item in sorted(keyed, key=lambda x: x[:2])]


def _fp32_precision(torch):
    matmul = torch.backends.cuda.matmul
    if hasattr(matmul, "fp32_precision"):
        return f"fp32_precision={matmul.fp32_precision}"
    return f"allow_tf32={matmul.allow_tf32}"


def _open_nvml(bus_id, results):
    try:
        from bench.energy import Nvml
        return Nvml(bus_id)
    except Exception as exc:  # noqa: BLE001  (no nvidia-ml-py, or NVML refuses: clocks are not recorded)
        results["notes"].append(f"NVML unavailable: {type(exc).__name__}: {exc}")
        return None


def _snapshot(nvml, results, when, t0):
    if nvml is not None:
        results["clocks"].append({"when": when, "t_s": round(time.monotonic() - t0, 1), **nvml.snapshot()})
