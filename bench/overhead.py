"""Per-call cost of ecgemm.matmul through Python, beside the peers, in one process.

`python -m bench.overhead [--out DIR]` reports:
- host us per call at 64 x 64 x 64 with the queue not drained (rounds of CALLS calls
  between synchronisations; the median round), for ecgemm.matmul on PyTorch (CAI,
  the Cython fast path, with and without out=; with stream= the general path),
  CuPy, PyTorch and JAX through DLPack, and the peers' own `a @ b` (PyTorch, CuPy, JAX);
- what one cuda.core StridedMemoryView costs per operand (why the fast path reads
  CAI operands in Cython instead);
- end to end at 1024^3: CUDA events around one call with nothing queued before it,
  ecgemm (tf32tf32) vs PyTorch `a @ b` with TF32 off (cuBLAS SGEMM);
- the same 64^3 host cost from C: bench/call_overhead.c (built here with the installed
  package's flags) times ecgemm_sgemm and cuBLAS's cublasSgemm_v2 in one process.
Markdown on stdout; results.json and table.md in --out.
"""
import argparse
import glob
import os
import re
import shutil
import site
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")  # share the GPU with torch/CuPy

import numpy as np  # noqa: E402

import ecgemm  # noqa: E402
from bench.report import write_section  # noqa: E402

SMALL = 64
CALLS = 100   # calls per round: far fewer than fill the launch queue
ROUNDS = 30
BIG = 1024
EVENT_REPEATS = 30


def host_us(call, sync, rounds=ROUNDS, calls=CALLS):
    """Median host microseconds per call over `rounds` rounds of `calls` calls."""
    call()
    sync()
    per_round = []
    for _ in range(rounds):
        sync()
        start = time.perf_counter_ns()
        for _ in range(calls):
            call()
        per_round.append((time.perf_counter_ns() - start) / calls / 1e3)
    sync()
    return statistics.median(per_round)


class DLPackOnly:
    """A tensor behind __dlpack__ / __dlpack_device__ only, as a DLPack-only library's."""

    def __init__(self, tensor):
        self.tensor = tensor

    def __dlpack__(self, stream=None, max_version=None, dl_device=None, copy=None):
        return self.tensor.__dlpack__(stream=stream)

    def __dlpack_device__(self):
        return self.tensor.__dlpack_device__()


def small_rows(torch, cupy, jax):
    rows = []
    rng = np.random.default_rng(0)
    host = rng.uniform(-1, 1, (SMALL, SMALL)).astype(np.float32)

    def add(name, call, sync, note=""):
        try:
            rows.append({"case": name, "host_us": host_us(call, sync), "note": note})
        except Exception as error:  # a missing peer must not lose the others' figures
            rows.append({"case": name, "host_us": None, "note": f"failed: {error!r}"[:200]})
        print(f"  {name}: {rows[-1]['host_us']}", file=sys.stderr)

    if torch is not None:
        a = torch.from_numpy(host).cuda()
        out = torch.empty_like(a)
        sync = torch.cuda.synchronize
        add("ecgemm.matmul, PyTorch (CAI, fast path)", lambda: ecgemm.matmul(a, a), sync)
        add("ecgemm.matmul, PyTorch, out= (fast path)", lambda: ecgemm.matmul(a, a, out=out), sync)
        current = torch.cuda.current_stream()
        add("ecgemm.matmul, PyTorch, out=, stream= (general path)",
            lambda: ecgemm.matmul(a, a, out=out, stream=current), sync)
        wrapped = DLPackOnly(a)
        add("ecgemm.matmul, PyTorch via DLPack (cuda.core)",
            lambda: ecgemm.matmul(wrapped, wrapped, out=out), sync, "out= a torch tensor")
        torch.backends.cuda.matmul.allow_tf32 = False
        add("PyTorch a @ b (cuBLAS SGEMM)", lambda: a @ a, sync)
        try:
            from cuda.core.utils import StridedMemoryView
            stream = torch.cuda.current_stream().cuda_stream or 1
            read = getattr(StridedMemoryView, "from_dlpack", StridedMemoryView)
            add("cuda.core StridedMemoryView.from_dlpack(torch tensor), one operand",
                lambda: read(a, stream), sync)
        except ImportError:
            pass
    if cupy is not None:
        a = cupy.asarray(host)
        sync = cupy.cuda.Device().synchronize
        add("ecgemm.matmul, CuPy (CAI, fast path)", lambda: ecgemm.matmul(a, a), sync)
        add("CuPy a @ b (cuBLAS)", lambda: a @ a, sync)
    if jax is not None:
        a = jax.numpy.asarray(host)
        sync = lambda: jax.block_until_ready(a)  # noqa: E731
        results = []

        def jax_call():
            results.append(ecgemm.matmul(a, a))
            if len(results) > 2 * CALLS:
                del results[:CALLS]

        def jax_sync():
            if results:
                results[-1].block_until_ready()
            if torch is not None:
                torch.cuda.synchronize()

        add("ecgemm.matmul, JAX (DLPack, result via jax from_dlpack)", jax_call, jax_sync)
        try:
            from cuda.core.utils import StridedMemoryView
            add("cuda.core StridedMemoryView.from_dlpack(jax array), one operand",
                lambda: StridedMemoryView.from_dlpack(a, 1), jax_sync)
        except (ImportError, AttributeError):
            pass
        from ecgemm._ecgemm import DeviceArray
        add("jax.numpy.from_dlpack(new ecgemm DeviceArray), the result's import",
            lambda: results.append(jax.numpy.from_dlpack(DeviceArray((SMALL, SMALL), 0, 0))),
            jax_sync)
        matmul = jax.jit(lambda x, y: x @ y)
        add("JAX jit(a @ b)", lambda: results.append(matmul(a, a)), jax_sync)
    return rows


def end_to_end(torch):
    """CUDA events around one 1024^3 call, nothing queued before it; median of repeats."""
    rng = np.random.default_rng(1)
    a = torch.from_numpy(rng.uniform(-1, 1, (BIG, BIG)).astype(np.float32)).cuda()
    b = torch.from_numpy(rng.uniform(-1, 1, (BIG, BIG)).astype(np.float32)).cuda()
    torch.backends.cuda.matmul.allow_tf32 = False
    rows = []
    for name, call in (("ecgemm.matmul tf32tf32", lambda: ecgemm.matmul(a, b)),
                       ("ecgemm.matmul fp32", lambda: ecgemm.matmul(a, b, mode="fp32")),
                       ("PyTorch a @ b, TF32 off", lambda: a @ b)):
        call()
        times = []
        for _ in range(EVENT_REPEATS):
            start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            torch.cuda.synchronize()
            start.record()
            call()
            end.record()
            end.synchronize()
            times.append(start.elapsed_time(end) * 1e3)
        rows.append({"case": name, "us": statistics.median(times), "min_us": min(times)})
        print(f"  {name}: {rows[-1]['us']:.1f} us", file=sys.stderr)
    reference = rows[-1]["us"]
    for row in rows:
        row["vs_torch"] = reference / row["us"]
    return rows


def c_rows():
    """Build bench/call_overhead.c against the installed package and run it beside cuBLAS
    (the nvidia-cublas wheel's library, opened by the program); rows of host us per call."""
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        return [{"case": "C ABI", "host_us": None, "sustained_us": None, "note": "no C compiler"}]
    from ecgemm import _paths
    libs = sorted(p for d in site.getsitepackages() + [site.getusersitepackages()]
                  for p in glob.glob(os.path.join(d, "nvidia", "**", "libcublas.so*"), recursive=True))
    source = Path(__file__).with_name("call_overhead.c")
    with tempfile.TemporaryDirectory() as tmp:
        exe = os.path.join(tmp, "call_overhead")
        build = [compiler, "-O2", str(source), *_paths.compile_flags().split(),
                 *_paths.link_flags().split(), "-ldl", "-o", exe]
        subprocess.run(build, check=True, capture_output=True, text=True)
        out = subprocess.run([exe] + libs[:1], check=True, capture_output=True, text=True).stdout
    rows = []
    pattern = re.compile(r"^(.*?)\s+host\s+([\d.]+) us/call\s+sustained\s+([\d.]+) us/call(.*)$")
    for line in out.splitlines():
        match = pattern.match(line)
        if match:
            rows.append({"case": match[1].strip(), "host_us": float(match[2]),
                         "sustained_us": float(match[3]), "note": match[4].strip()})
        elif line.strip():
            rows.append({"case": line.strip(), "host_us": None, "sustained_us": None, "note": ""})
    return rows


def _import(name):
    try:
        module = __import__(name)
    except ImportError:
        return None
    return module


def _guarded(fn):
    try:
        return fn()
    except Exception as error:  # noqa: BLE001  (the Python figures must survive a failed build)
        return [{"case": "C ABI", "host_us": None, "sustained_us": None,
                 "note": f"failed: {error!r}"[:300]}]


def markdown(results):
    lines = [f"# Python call overhead — {results['device']}", "",
             f"Host µs per call, {SMALL}×{SMALL}×{SMALL}, queue not drained "
             f"(median of {ROUNDS} rounds of {CALLS} calls):", "",
             "| case | host µs/call | note |", "|---|---:|---|"]
    for row in results["small"]:
        value = "—" if row["host_us"] is None else f"{row['host_us']:.1f}"
        lines.append(f"| {row['case']} | {value} | {row['note']} |")
    if results.get("c_abi"):
        lines += ["", f"From C (bench/call_overhead.c), {SMALL}×{SMALL}×{SMALL}: host µs per call, median "
                  "of 30 rounds of 100 calls (queue not drained, not filled), and a sustained run of "
                  "20000 calls (paced by the GPU once the launch queue fills):", "",
                  "| case | host µs/call | sustained µs/call | note |", "|---|---:|---:|---|"]
        for row in results["c_abi"]:
            host = "—" if row["host_us"] is None else f"{row['host_us']:.2f}"
            sustained = "—" if row["sustained_us"] is None else f"{row['sustained_us']:.2f}"
            lines.append(f"| {row['case']} | {host} | {sustained} | {row['note']} |")
    if results.get("end_to_end"):
        lines += ["", f"End to end {BIG}³ through Python (CUDA events around one call, nothing "
                  f"queued before it; median of {EVENT_REPEATS}):", "",
                  "| case | µs | min µs | speed vs PyTorch a @ b |", "|---|---:|---:|---:|"]
        for row in results["end_to_end"]:
            lines.append(f"| {row['case']} | {row['us']:.1f} | {row['min_us']:.1f} | "
                         f"{row['vs_torch']:.2f}× |")
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m bench.overhead", description=__doc__)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(argv)
    torch, cupy, jax = _import("torch"), _import("cupy"), _import("jax")
    if torch is not None and not torch.cuda.is_available():
        torch = None
    if jax is not None and not any(d.platform == "gpu" for d in jax.devices()):
        jax = None
    props = ecgemm._device_properties(0)
    results = {"device": props["name"], "ecgemm": ecgemm.__version__,
               "torch": getattr(torch, "__version__", None),
               "cupy": getattr(cupy, "__version__", None),
               "jax": getattr(jax, "__version__", None),
               "small": small_rows(torch, cupy, jax),
               "end_to_end": end_to_end(torch) if torch is not None else [],
               "c_abi": _guarded(c_rows)}
    write_section(args.out, results, markdown(results))


if __name__ == "__main__":
    main()
