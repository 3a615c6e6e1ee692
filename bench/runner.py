"""One benchmark run, in order: throughput (in-process) → XLA peers (subprocess) → accuracy → energy."""
import sys
import time
import traceback
from dataclasses import asdict

from bench import report
from bench.methods import SGEMM, InProcess, jax_importable, select
from bench.profiles import HEADLINE_N

DEFAULT_L2_BYTES = 50 * 2**20   # H100's L2, used only when torch does not report the device's
XLA_SHARE = 0.4                 # of the time left when the XLA worker starts


class Deadline:
    def __init__(self, minutes):
        self.t0 = time.monotonic()
        self.limit = minutes * 60

    def elapsed(self):
        return time.monotonic() - self.t0

    def remaining(self):
        return max(0.0, self.limit - self.elapsed())

    def expired(self):
        return self.remaining() <= 0


class Context:
    """What every section needs: torch, the bound methods, the profile, the results dict, progress output."""

    def __init__(self, torch, profile, methods, nvml, deadline, results):
        self.torch, self.profile, self.methods, self.nvml = torch, profile, methods, nvml
        self.deadline, self.results = deadline, results
        props = torch.cuda.get_device_properties(0)
        self.l2_bytes = getattr(props, "L2_cache_size", 0) or DEFAULT_L2_BYTES
        self.pci_bus_id = None
        self.xla_share = XLA_SHARE

    def progress(self, msg):
        t = int(self.deadline.elapsed())
        print(f"[bench {t // 60:02d}:{t % 60:02d}] {msg}", file=sys.stderr, flush=True)

    def note(self, msg):
        self.results["notes"].append(msg)
        self.progress("note: " + msg)

    def snapshot(self, when):
        if self.nvml is not None:
            self.results["clock_snapshots"].append({"when": when, "t_s": round(self.deadline.elapsed(), 1),
                                                    **self.nvml.snapshot()})


def run(profile, method_patterns, sections, max_minutes, use_xla):
    try:
        import torch
    except ImportError:
        raise SystemExit("bench: measuring needs PyTorch with CUDA (re-rendering a saved run does not: "
                         "--from-json)") from None

    from bench import env as envmod
    if not torch.cuda.is_available():
        raise SystemExit("bench: no CUDA GPU is visible to torch; nothing to measure")
    deadline = Deadline(max_minutes or profile.deadline_min)
    results = report.new_results(asdict(profile))
    infos = select(method_patterns)
    torch.matmul(torch.ones(8, 8, device="cuda"), torch.ones(8, 8, device="cuda"))  # load cuBLAS for env.collect
    bus_id = envmod.pci_bus_id(torch)
    nvml = _open_nvml(bus_id, results)
    methods = InProcess(torch, infos)
    ctx = Context(torch, profile, methods, nvml, deadline, results)
    ctx.pci_bus_id = bus_id
    results["env"] = envmod.collect(torch, nvml)
    xla_names = [m.name for m in infos if m.family == "xla"] if use_xla else []
    xla_reason = None if jax_importable() else "jax is not importable"
    for m in infos:
        reason = methods.reasons.get(m.name) or (xla_reason if m.family == "xla" else None)
        if m.family == "xla" and not use_xla:
            reason = "--no-xla"
        results["methods"].append({**m.as_dict(), "available": reason is None, "reason": reason,
                                   "variant": methods.variants.get(m.name)})
        if reason:
            ctx.progress(f"{m.name}: not measured ({reason})")
    if SGEMM not in methods.names:
        ctx.note("cuBLAS SGEMM is unavailable: no speed ratios")
    ctx.progress(f"{results['env']['gpu']}: profile {profile.name}, methods {', '.join(methods.names + xla_names)}")
    ctx.snapshot("start")
    try:
        _sections(ctx, sections, xla_names if xla_reason is None else [])
    finally:
        methods.close()
    ctx.snapshot("end")
    results["elapsed_s"] = round(deadline.elapsed(), 1)
    return results


def _sections(ctx, sections, xla_names):
    from bench.accuracy import run_accuracy
    from bench.energy import run_energy
    from bench.throughput import run_throughput
    from bench.xla_peer import run_xla
    torch = ctx.torch
    if "throughput" in sections:
        _section(ctx, "throughput", run_throughput)
    if xla_names:
        torch.cuda.empty_cache()   # hand the cached blocks back before JAX allocates
        _section(ctx, "XLA peers (subprocess)", lambda c: run_xla(c, xla_names, sections))
    if "accuracy" in sections:
        _section(ctx, "accuracy vs k and exponent types", run_accuracy)
    if "energy" in sections:
        _section(ctx, "energy", run_energy)
    _section(ctx, "SGEMM re-check", _recheck_sgemm)


def _section(ctx, title, body):
    """Run one section; a crash there is noted (with its traceback on stderr) and the run goes on."""
    ctx.progress(f"— {title}")
    try:
        body(ctx)
    except Exception as exc:  # noqa: BLE001  (the other sections' figures are still worth writing)
        traceback.print_exc()
        ctx.note(f"{title} stopped early: {type(exc).__name__}: {exc}")
        ctx.torch.cuda.empty_cache()
    ctx.snapshot(f"after {title}")


def _recheck_sgemm(ctx):
    """Time SGEMM at the headline size again at the end: the drift says how far apart in time ratios hold."""
    from bench.throughput import recheck
    first = [r for r in ctx.results["throughput"] if r["method"] == SGEMM and r["shape"] == [HEADLINE_N] * 3
             and r.get("ms")]
    if not first or ctx.deadline.remaining() < 5:
        return
    ms = recheck(ctx, SGEMM, (HEADLINE_N,) * 3)
    drift = ms / first[0]["ms"] - 1
    ctx.results["sgemm_recheck"] = {"n": HEADLINE_N, "first_ms": first[0]["ms"], "last_ms": ms, "drift": drift}
    ctx.progress(f"SGEMM at n = {HEADLINE_N} re-timed at the end: {ms:.3f} ms ({drift:+.1%} vs the first)")


def _open_nvml(bus_id, results):
    try:
        from bench.energy import Nvml
        return Nvml(bus_id)
    except Exception as exc:  # noqa: BLE001  (no nvidia-ml-py, or NVML refuses: energy and clocks are skipped)
        results["notes"].append(f"NVML unavailable: {type(exc).__name__}: {exc}")
        return None
