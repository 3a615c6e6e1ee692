"""Big squares against what three Tensor Core products can reach, with SM clocks and power.

Per n, in one process: GPU time of cuBLAS SGEMM, of one cuBLAS TF32 and one FP16 product (a
three-product method that ran each product at cuBLAS's own rate would take three of them), and of
ecgemm tf32tf32 / halfhalf, whole and per kernel (split pass, mainloop), with the SM clock and board
power NVML reads while each runs. Peaks are the Hopper SM's dense rates (TF32 2048, FP16 4096 FLOP a
clock: 494.7 / 989.4 TFLOP/s over 132 SMs at 1830 MHz) at the clock read.
Writes square_ceiling.txt and square_ceiling.json (--out, default $OUT). Needs nvidia-ml-py."""
import json
import pathlib
import statistics
import threading

from tools import _common

FLOP_PER_CLOCK = {"tf32": 2048, "fp16": 4096}  # per SM, dense, cc 9.0


class Sampler:
    """SM clock (MHz) and board power (W) every 20 ms while the `with` block runs."""

    def __init__(self, pynvml, handle):
        self.pynvml, self.handle, self.clock, self.power = pynvml, handle, [], []

    def _loop(self):
        pynvml = self.pynvml
        while not self.stop.wait(0.02):
            self.clock.append(pynvml.nvmlDeviceGetClockInfo(self.handle, pynvml.NVML_CLOCK_SM))
            self.power.append(pynvml.nvmlDeviceGetPowerUsage(self.handle) / 1e3)

    def __enter__(self):
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._loop)
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        self.thread.join()

    def summary(self):
        return {"sm_clock_mhz": statistics.median(self.clock) if self.clock else None,
                "power_w": statistics.median(self.power) if self.power else None}


def kernel_us(torch, call, reps=5):
    """GPU µs per call of each kernel the call launches (PyTorch profiler)."""
    from torch.profiler import ProfilerActivity, profile

    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(reps):
            call()
        torch.cuda.synchronize()
    return {e.key: e.device_time_total / reps for e in prof.key_averages()
            if getattr(e, "device_time_total", 0)}


def measure(torch, pynvml, name, call, handle, flops, batches, calls, with_kernels=False):
    from bench.timing import gpu_ms

    with Sampler(pynvml, handle) as s:
        ms = gpu_ms(torch, call, batches=batches, calls=calls)
    row = {"method": name, "ms": ms, "tflops": flops / ms / 1e9, **s.summary()}
    if with_kernels:
        row["kernels_us"] = kernel_us(torch, call)
    return row


def add_arguments(p):
    p.add_argument("--sizes", default="8192,16384", help="n of the n^3 products (default 8192,16384)")
    p.add_argument("--out", default="", help="folder for the text and JSON (default $OUT)")


def run(args):
    try:
        import pynvml
    except ImportError as error:
        raise SystemExit(f"ceiling needs nvidia-ml-py (pip install nvidia-ml-py): {error}")
    import torch

    import ecgemm

    out_dir = pathlib.Path(args.out) if args.out else _common.out_dir()
    out_dir.mkdir(parents=True, exist_ok=True)
    pynvml.nvmlInit()
    handle = pynvml.nvmlDeviceGetHandleByIndex(torch.cuda.current_device())
    props = torch.cuda.get_device_properties(0)
    report = {"gpu": props.name, "sm_count": props.multi_processor_count,
              "max_sm_clock_mhz": pynvml.nvmlDeviceGetMaxClockInfo(handle, pynvml.NVML_CLOCK_SM),
              "power_limit_w": pynvml.nvmlDeviceGetEnforcedPowerLimit(handle) / 1e3, "sizes": []}
    lines = [f"{props.name}, {props.multi_processor_count} SMs, max SM clock {report['max_sm_clock_mhz']} MHz, "
             f"power limit {report['power_limit_w']:.0f} W"]
    for n in map(int, args.sizes.split(",")):
        flops = 2.0 * n ** 3
        batches, calls = (10, 5) if n <= 8192 else (4, 3)
        gen = torch.Generator(device="cuda").manual_seed(n)
        a = torch.rand(n, n, device="cuda", generator=gen) * 2 - 1
        b = torch.rand(n, n, device="cuda", generator=gen) * 2 - 1
        out = torch.empty(n, n, device="cuda")
        a16, b16 = a.half(), b.half()

        def torch_mm(tf32):
            def call():
                torch.backends.cuda.matmul.allow_tf32 = tf32
                torch.matmul(a, b, out=out)
            return call

        rows = [measure(torch, pynvml, "cublas_sgemm", torch_mm(False), handle, flops, batches, calls),
                measure(torch, pynvml, "cublas_tf32_one_product", torch_mm(True), handle, flops, batches, calls),
                measure(torch, pynvml, "cublas_fp16_one_product",
                        lambda: torch.mm(a16, b16, torch.float32, out=out), handle, flops, batches, calls)]
        torch.backends.cuda.matmul.allow_tf32 = False
        for mode in ("tf32tf32", "halfhalf"):
            rows.append(measure(torch, pynvml, f"ecgemm_{mode}", lambda: ecgemm.matmul(a, b, out=out, mode=mode),
                                handle, flops, batches, calls, with_kernels=True))
        by = {r["method"]: r for r in rows}
        sgemm = by["cublas_sgemm"]["ms"]
        lines.append(f"\n{n}^3 (TFLOP/s count 2n^3 once; x SGEMM in the same process)")
        for r in rows:
            lines.append(f"  {r['method']:26s} {r['ms']:9.3f} ms {r['tflops']:7.1f} TFLOP/s  x{sgemm / r['ms']:5.2f}"
                         f"  SM {r['sm_clock_mhz']} MHz  {r['power_w']:.0f} W")
        for mode, kind, one in (("tf32tf32", "tf32", "cublas_tf32_one_product"),
                                ("halfhalf", "fp16", "cublas_fp16_one_product")):
            r = by[f"ecgemm_{mode}"]
            clock = r["sm_clock_mhz"] or report["max_sm_clock_mhz"]
            peak3 = props.multi_processor_count * FLOP_PER_CLOCK[kind] * clock * 1e6 / 3 / 1e12
            ceiling_ms = 3 * by[one]["ms"]
            kernels = sorted(r["kernels_us"].items(), key=lambda kv: -kv[1])
            main_us = kernels[0][1]
            r["derived"] = {"three_product_peak_tflops_at_clock": peak3,
                            "fraction_of_peak": r["tflops"] / peak3,
                            "mainloop_tflops": flops / main_us / 1e6,
                            "mainloop_fraction_of_peak": flops / main_us / 1e6 / peak3,
                            "three_cublas_products_ms": ceiling_ms,
                            "three_cublas_products_x_sgemm": sgemm / ceiling_ms,
                            "fraction_of_three_cublas_products": ceiling_ms / r["ms"]}
            d = r["derived"]
            lines.append(f"  {mode}: {d['fraction_of_peak']:.1%} of the three-product peak at {clock} MHz "
                         f"({peak3:.1f} TFLOP/s); mainloop alone {d['mainloop_tflops']:.1f} TFLOP/s "
                         f"({d['mainloop_fraction_of_peak']:.1%}); three cuBLAS {kind} products "
                         f"{ceiling_ms:.3f} ms = x{d['three_cublas_products_x_sgemm']:.2f} SGEMM, ecgemm at "
                         f"{d['fraction_of_three_cublas_products']:.1%} of that")
            for key, us in kernels:
                lines.append(f"      {us:10.1f} us  {key[:100]}")
        report["sizes"].append({"n": n, "rows": rows})
        del a, b, out, a16, b16
        torch.cuda.empty_cache()
    text = "\n".join(lines)
    print(text)
    (out_dir / "square_ceiling.txt").write_text(text + "\n")
    (out_dir / "square_ceiling.json").write_text(json.dumps(report, indent=1))
    return 0
