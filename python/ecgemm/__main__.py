"""``python -m ecgemm``: check the installation on this machine's GPU.

Prints the device, then one m = n = k product per mode and, where CuPy or
PyTorch is installed, cuBLAS SGEMM on the same inputs: the relative residual
against an FP64 product and the throughput. Exits 1 without a usable GPU.

``--cflags``, ``--libs``, ``--cmake-prefix`` and ``--preload`` print what a C,
C++ or Fortran build needs from the installed package instead (see _paths.py).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from typing import Callable, Iterator, List, Optional, Tuple

import numpy as np

import ecgemm
from ecgemm import _ecgemm, _paths
from ecgemm._layout import plan_gemm
from ecgemm._operands import as_operand


def _residual(c: np.ndarray, reference: np.ndarray) -> float:
    return float(np.linalg.norm(c - reference) / np.linalg.norm(reference))


def _tflops(n: int, milliseconds: float) -> float:
    return 2.0 * n**3 / (milliseconds * 1e-3) / 1e12


def _time_ecgemm(handle: ecgemm.Handle, a: np.ndarray, b: np.ndarray, mode: str,
                 repeats: int) -> Tuple[np.ndarray, float]:
    """Result and median milliseconds of `repeats` timed runs (copies excluded)."""
    c = np.full((a.shape[0], b.shape[1]), np.nan, dtype=np.float32)
    plan = plan_gemm(as_operand(a, "a"), as_operand(b, "b"), as_operand(c, "c"))
    times = _ecgemm.benchmark_host(handle, plan, mode, repeats)
    return c, statistics.median(times)


def _cublas_peers(a: np.ndarray, b: np.ndarray, device: int,
                  repeats: int) -> Iterator[Tuple[str, np.ndarray, float]]:
    """cuBLAS SGEMM through each of CuPy and PyTorch that imports: (label, C, median ms)."""
    try:
        import cupy
    except ImportError:
        cupy = None
    if cupy is not None:
        with cupy.cuda.Device(device):
            da, db = cupy.asarray(a), cupy.asarray(b)
            yield (f"cuBLAS SGEMM (CuPy {cupy.__version__})",
                   *_time_peer(lambda: da @ db, cupy.cuda.Event, cupy.cuda.get_elapsed_time,
                               cupy.asnumpy, repeats))
    try:
        import torch
    except ImportError:
        torch = None
    if torch is not None and torch.cuda.is_available():
        torch.backends.cuda.matmul.allow_tf32 = False  # plain FP32 SGEMM, not TF32
        da, db = (torch.from_numpy(x).to(f"cuda:{device}") for x in (a, b))
        with torch.cuda.device(device):
            yield (f"cuBLAS SGEMM (PyTorch {torch.__version__})",
                   *_time_peer(lambda: da @ db, lambda: torch.cuda.Event(enable_timing=True),
                               lambda start, end: start.elapsed_time(end),
                               lambda x: x.cpu().numpy(), repeats))


def _time_peer(run: Callable, make_event: Callable, elapsed: Callable, to_numpy: Callable,
               repeats: int) -> Tuple[np.ndarray, float]:
    """Result and median milliseconds of `repeats` timed runs, after one warm-up."""
    result = run()  # warm-up: library loading, heuristics
    times: List[float] = []
    for _ in range(repeats):
        start, end = make_event(), make_event()
        start.record()
        result = run()
        end.record()
        end.synchronize()
        times.append(elapsed(start, end))
    return to_numpy(result), statistics.median(times)


def _open_device(device: Optional[int]) -> Tuple[Optional[ecgemm.Handle], str]:
    """A handle on `device` and a line describing it, or (None, why not)."""
    if ecgemm.device_count() == 0:
        return None, "no CUDA GPU usable by ecgemm was found (device_count() == 0)"
    try:
        handle = ecgemm.Handle(device=device)
        props = ecgemm._device_properties(handle.device)
    except ecgemm.EcgemmError as error:
        return None, str(error)
    major, minor = props["compute_capability"]
    return handle, (f"device {handle.device}: {props['name']}, sm_{major}{minor}, "
                    f"{props['multiprocessors']} SMs, {props['memory_bytes'] / 2**30:.1f} GiB")


# Build-information flags, in output order: what was asked is printed on one line
# (``--cflags --libs`` as pkg-config does), for a shell's $(...).
_PATH_QUERIES = {
    "cflags": (_paths.compile_flags, "compiler flags: -I for ecgemm.h and the Fortran module"),
    "libs": (_paths.link_flags, "linker flags for libecgemm (-L, run path, -lecgemm)"),
    "cmake_prefix": (_paths.get_cmake_prefix,
                     "prefix for CMAKE_PREFIX_PATH (find_package(ecgemm CONFIG))"),
    "preload": (_paths.preload_library,
                "path of libecgemm_cublas.so for LD_PRELOAD (exits 1 if not built)"),
}


def _print_path_queries(names: List[str]) -> int:
    try:
        print(" ".join(_PATH_QUERIES[name][0]() for name in names))
    except FileNotFoundError as error:
        print(f"ecgemm: {error}", file=sys.stderr)
        return 1
    return 0


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m ecgemm",
        description="Check ecgemm on this machine's GPU, or print how to build against it.")
    parser.add_argument("--size", type=int, default=4096, help="m = n = k (default 4096)")
    parser.add_argument("--device", type=int, default=None, help="CUDA device (default: current)")
    parser.add_argument("--repeats", type=int, default=10, help="timed runs per method")
    for name, (_, help_text) in _PATH_QUERIES.items():
        parser.add_argument("--" + name.replace("_", "-"), action="store_true", help=help_text)
    args = parser.parse_args(argv)
    queries = [name for name in _PATH_QUERIES if getattr(args, name)]
    if queries:
        return _print_path_queries(queries)

    print(f"ecgemm {ecgemm.__version__}, NumPy {np.__version__}, Python {sys.version.split()[0]}")
    handle, description = _open_device(args.device)
    if handle is None:
        print(f"ecgemm: {description}", file=sys.stderr)
        return 1
    print(description)

    n = args.size
    rng = np.random.default_rng(0)
    a = rng.uniform(-1, 1, (n, n)).astype(np.float32)
    b = rng.uniform(-1, 1, (n, n)).astype(np.float32)
    started = time.perf_counter()
    reference = a.astype(np.float64) @ b.astype(np.float64)
    print(f"m = n = k = {n}, uniform(-1, 1) inputs; residual = ||C - C_fp64||_F / ||C_fp64||_F "
          f"(FP64 reference on the CPU: {time.perf_counter() - started:.1f} s)")
    print(f"{'method':<40} {'residual':>10} {'ms':>9} {'TFLOP/s':>8}")
    with handle:
        for mode in ecgemm.MODES:
            c, ms = _time_ecgemm(handle, a, b, mode, args.repeats)
            print(f"{'ecgemm ' + mode:<40} {_residual(c, reference):>10.2e} {ms:>9.3f} "
                  f"{_tflops(n, ms):>8.1f}")
    for label, c, ms in _cublas_peers(a, b, handle.device, args.repeats):
        print(f"{label:<40} {_residual(c, reference):>10.2e} {ms:>9.3f} {_tflops(n, ms):>8.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
