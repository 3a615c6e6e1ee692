"""Timing: warm-up, batches of back-to-back calls, the median over at least MIN_SAMPLES batches.

A batch holds enough calls to last ~BATCH_TARGET_MS so that launch gaps and the event resolution (~0.5 µs) stay
small against it; inputs are rotated across several operand sets when one set would sit in L2, so that the
timing measures DRAM-fed GEMMs as users see them, not cache replays.
"""
import math
import statistics
import time
from dataclasses import dataclass, field

MIN_SAMPLES = 10
MAX_SAMPLES = 50
BATCH_TARGET_MS = 1.0
MAX_CALLS_PER_BATCH = 64
MIN_WARMUP_CALLS = 3        # the first call may compile, autotune or grow a workspace
L2_ROTATION_FACTOR = 3      # rotate through >= 3× L2 of operands when one set would fit in L2
MAX_ROTATION_SETS = 16
HOST_BOUND_FRACTION = 0.8   # host time per call at or above this share of the GPU time: the host sets the pace


@dataclass
class Timing:
    median_ms: float
    samples_ms: list = field(default_factory=list)
    calls_per_sample: int = 1
    operand_sets: int = 1
    timer: str = "cuda-events"
    host_ms_per_call: float = None   # Python + launch time of one call, issued into an idle stream

    def as_dict(self):
        return {"median_ms": self.median_ms, "samples_ms": self.samples_ms, "calls_per_sample": self.calls_per_sample,
                "operand_sets": self.operand_sets, "timer": self.timer, "host_ms_per_call": self.host_ms_per_call}

    @property
    def host_bound(self):
        """The caller could not issue calls faster than the GPU ran them: the time is (partly) the caller's."""
        return self.host_ms_per_call is not None and self.host_ms_per_call >= HOST_BOUND_FRACTION * self.median_ms


def rotation_sets(bytes_per_set, l2_bytes):
    """How many operand sets to rotate through: one when a set is well beyond L2, else enough to cover 3× L2."""
    if bytes_per_set <= 0:
        raise ValueError("bytes_per_set must be positive")
    if bytes_per_set >= 2 * l2_bytes:
        return 1
    return min(MAX_ROTATION_SETS, math.ceil(L2_ROTATION_FACTOR * l2_bytes / bytes_per_set))


def plan_batches(estimate_ms, budget_s):
    """(calls per batch, batches) for a call of ~estimate_ms: >= MIN_SAMPLES batches, more while the budget lasts."""
    estimate_ms = max(estimate_ms, 1e-3)
    calls = max(1, min(MAX_CALLS_PER_BATCH, math.ceil(BATCH_TARGET_MS / estimate_ms)))
    affordable = int(budget_s * 1e3 / (calls * estimate_ms))
    return calls, max(MIN_SAMPLES, min(MAX_SAMPLES, affordable))


def warmup_calls(estimate_ms, warmup_s):
    """Extra untimed calls after the first ones, so that clocks and caches settle for warmup_s."""
    return min(1000, max(0, math.ceil(warmup_s * 1e3 / max(estimate_ms, 1e-3))))


def summarize(samples_ms, calls_per_sample, operand_sets, timer, host_ms_per_call=None):
    return Timing(statistics.median(samples_ms), list(samples_ms), calls_per_sample, operand_sets, timer,
                  host_ms_per_call)


def time_cuda(calls, budget_s, warmup_s):
    """Median ms per call of the callables `calls` (one per operand set, used round-robin), CUDA events on the
    current torch stream; every callable must launch its work on that stream."""
    import torch

    def run(count, start):
        for i in range(count):
            calls[(start + i) % len(calls)]()
        return start + count

    nxt = run(MIN_WARMUP_CALLS, 0)
    torch.cuda.synchronize()
    begin, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    t0 = time.perf_counter()   # the stream is idle, so issuing these calls cannot block on a full queue
    begin.record()
    nxt = run(len(calls), nxt)
    end.record()
    host_ms = (time.perf_counter() - t0) * 1e3 / len(calls)
    end.synchronize()
    estimate = begin.elapsed_time(end) / len(calls)
    nxt = run(warmup_calls(estimate, warmup_s), nxt)
    per_batch, batches = plan_batches(estimate, budget_s)
    # A caller slower than the GPU would time its own gaps; queue a GPU sleep longer than
    # issuing the batch takes, so the calls run back to back and the events measure GPU time.
    prefill = prefill_cycles(host_ms * per_batch) if host_ms >= HOST_BOUND_FRACTION * estimate else 0
    events = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)) for _ in range(batches)]
    for b, e in events:
        if prefill:
            torch.cuda._sleep(prefill)
        b.record()
        nxt = run(per_batch, nxt)
        e.record()
        if prefill:
            e.synchronize()   # the next sleep must start behind this batch, not pile up
    torch.cuda.synchronize()
    return summarize([b.elapsed_time(e) / per_batch for b, e in events], per_batch, len(calls),
                     "cuda-events, queue prefilled" if prefill else "cuda-events", host_ms)


def time_host(calls, wait, budget_s, warmup_s):
    """Like time_cuda for frameworks without CUDA events (JAX): `calls` return a handle, `wait(handle)` blocks
    until it is done; a batch is timed by the host clock from its first dispatch to the last result."""
    def run(count, start):
        handle = None
        for i in range(count):
            handle = calls[(start + i) % len(calls)]()
        return start + count, handle

    nxt, h = run(MIN_WARMUP_CALLS, 0)
    wait(h)
    t0 = time.perf_counter()
    nxt, h = run(len(calls), nxt)
    wait(h)
    estimate = (time.perf_counter() - t0) * 1e3 / len(calls)
    nxt, h = run(warmup_calls(estimate, warmup_s), nxt)
    if h is not None:
        wait(h)
    per_batch, batches = plan_batches(estimate, budget_s)
    samples = []
    for _ in range(batches):
        t0 = time.perf_counter()
        nxt, h = run(per_batch, nxt)
        wait(h)
        samples.append((time.perf_counter() - t0) * 1e3 / per_batch)
    return summarize(samples, per_batch, len(calls), "host-clock")


GPU_MS_PREFILL_CYCLES = 20_000_000  # ~10 ms of GPU sleep: longer than issuing a batch of calls
GPU_CYCLES_PER_MS = 2_000_000       # an upper bound on Hopper's SM clock (1.98 GHz on the H200)


def prefill_cycles(host_ms):
    """GPU sleep cycles that outlast `host_ms` of issuing calls twice over (at least GPU_MS_PREFILL_CYCLES)."""
    return max(GPU_MS_PREFILL_CYCLES, int(2 * host_ms * GPU_CYCLES_PER_MS))


def gpu_ms(torch, call, batches=10, calls=5):
    """Median GPU ms per call of `batches` runs of `calls` back-to-back calls (CUDA events
    on the current stream), after one warm-up call: for the sections that time a few
    fixed cases (bench.auto, bench.batched) rather than the profiles' sweeps. A GPU sleep
    queued first keeps the GPU busy while the host issues the batch, so that the calls
    run back to back whatever the caller's cost per call (host_us_per_call measures that)."""
    call()
    torch.cuda.synchronize()
    times = []
    for _ in range(batches):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        torch.cuda._sleep(GPU_MS_PREFILL_CYCLES)
        start.record()
        for _ in range(calls):
            call()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) / calls)
    return statistics.median(times)


def host_us_per_call(torch, call, calls=20):
    """Host µs to issue one call while the GPU is busy (queue not drained, not full)."""
    torch.cuda.synchronize()
    torch.cuda._sleep(GPU_MS_PREFILL_CYCLES)
    start = time.perf_counter()
    for _ in range(calls):
        call()
    elapsed = time.perf_counter() - start
    torch.cuda.synchronize()
    return elapsed / calls * 1e6
