"""Energy per GEMM from NVML's total-energy counter (millijoules since driver load) over >= 2 s of back-to-back
GEMMs: GFLOP/J and the average power. Framework-neutral: the JAX worker uses it too."""
import math
import time

BATCH_SECONDS = 0.05   # calls are issued in batches this long, then synchronised (keeps the queue short)


class Nvml:
    """The NVML view of one GPU: the energy counter and a snapshot of clocks, power and temperature."""

    def __init__(self, pci_bus_id=None):
        import pynvml
        self.nv = pynvml
        pynvml.nvmlInit()
        self.handle = None
        if pci_bus_id:
            try:
                self.handle = pynvml.nvmlDeviceGetHandleByPciBusId(pci_bus_id)
            except pynvml.NVMLError:
                self.handle = None
        self.matched_by = "pci-bus-id" if self.handle is not None else "index-0"
        if self.handle is None:
            self.handle = pynvml.nvmlDeviceGetHandleByIndex(0)

    def energy_mj(self):
        return self.nv.nvmlDeviceGetTotalEnergyConsumption(self.handle)

    def snapshot(self):
        nv, h = self.nv, self.handle
        reads = {
            "sm_clock_mhz": lambda: nv.nvmlDeviceGetClockInfo(h, nv.NVML_CLOCK_SM),
            "mem_clock_mhz": lambda: nv.nvmlDeviceGetClockInfo(h, nv.NVML_CLOCK_MEM),
            "sm_clock_max_mhz": lambda: nv.nvmlDeviceGetMaxClockInfo(h, nv.NVML_CLOCK_SM),
            "mem_clock_max_mhz": lambda: nv.nvmlDeviceGetMaxClockInfo(h, nv.NVML_CLOCK_MEM),
            "app_sm_clock_mhz": lambda: nv.nvmlDeviceGetApplicationsClock(h, nv.NVML_CLOCK_SM),
            "power_w": lambda: nv.nvmlDeviceGetPowerUsage(h) / 1e3,
            "power_limit_w": lambda: nv.nvmlDeviceGetEnforcedPowerLimit(h) / 1e3,
            "temperature_c": lambda: nv.nvmlDeviceGetTemperature(h, nv.NVML_TEMPERATURE_GPU),
            "pstate": lambda: nv.nvmlDeviceGetPerformanceState(h),
            "clock_event_reasons": lambda: hex(_clock_event_reasons(nv)(h)),
        }
        snap = {}
        for key, read in reads.items():
            try:
                snap[key] = read()
            except Exception:  # noqa: BLE001  (a field this GPU or driver does not report)
                snap[key] = None
        return snap


def _clock_event_reasons(nv):
    """Why clocks are below maximum (power cap, thermal, ...): the call was renamed in newer NVML."""
    return getattr(nv, "nvmlDeviceGetCurrentClocksEventReasons", None) or nv.nvmlDeviceGetCurrentClocksThrottleReasons


def measure_energy(nvml, call, sync, seconds, flops_per_call):
    """Joules, seconds and calls for `call` repeated back to back for >= `seconds` (sync() waits for the GPU)."""
    call()
    sync()
    t0 = time.perf_counter()
    call()
    sync()
    per_call = max(time.perf_counter() - t0, 1e-6)
    batch = max(1, min(500, math.ceil(BATCH_SECONDS / per_call)))
    start_w = nvml.snapshot()["power_w"]
    e0, t0, calls = nvml.energy_mj(), time.perf_counter(), 0
    while True:
        for _ in range(batch):
            call()
        sync()
        calls += batch
        elapsed = time.perf_counter() - t0
        if elapsed >= seconds:
            break
    joules = (nvml.energy_mj() - e0) / 1e3
    flop = flops_per_call * calls
    return {"calls": calls, "seconds": elapsed, "joules": joules, "watts": joules / elapsed,
            "gflop_per_joule": flop / joules / 1e9 if joules > 0 else None,
            "tflops": flop / elapsed / 1e12, "power_at_start_w": start_w}


def run_energy(ctx):
    """Every in-process method at n = energy_n, urand(−1, 1)."""
    from bench import inputs
    from bench.accuracy import to_device
    torch = ctx.torch
    if ctx.nvml is None:
        ctx.note("energy skipped: NVML (nvidia-ml-py) is not usable here")
        return
    n = ctx.profile.energy_n
    a, b = inputs.energy_pair(n)
    a, b = to_device(torch, a), to_device(torch, b)
    out = torch.empty((n, n), device="cuda", dtype=torch.float32)
    for name in ctx.methods.names:
        if ctx.deadline.expired():
            ctx.note(f"energy {name} skipped: time budget spent")
            continue
        row = {"method": name, "n": n}
        try:
            row.update(measure_energy(ctx.nvml, ctx.methods.bind(name, a, b, out), torch.cuda.synchronize,
                                      ctx.profile.energy_seconds, 2.0 * n ** 3))
            ctx.progress(f"energy {name:16s} {row['gflop_per_joule']:7.1f} GFLOP/J  {row['watts']:6.1f} W  "
                         f"{row['tflops']:6.1f} TFLOP/s")
        except Exception as exc:  # noqa: BLE001
            row["error"] = f"{type(exc).__name__}: {exc}"[:300]
            ctx.progress(f"energy {name:16s} error: {row['error']}")
        ctx.results["energy"].append(row)
    del a, b, out
    torch.cuda.empty_cache()
