"""The environment a result belongs to: GPU, driver, CUDA, the cuBLAS actually loaded, library versions."""
import ctypes
import importlib.metadata
import platform
import sys

PACKAGES = ("ecgemm", "torch", "triton", "jax", "jaxlib", "cupy-cuda13x", "cupy-cuda12x", "numpy",
            "nvidia-ml-py", "matplotlib", "nvidia-cublas", "nvidia-cublas-cu12")
CUBLAS_PROPERTIES = ("major", "minor", "patch")  # libraryPropertyType MAJOR_VERSION, MINOR_VERSION, PATCH_LEVEL


def package_versions():
    found = {}
    for name in PACKAGES:
        try:
            found[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            continue
    return found


def loaded_cublas():
    """Each libcublas this process has loaded, with its version read by cublasGetProperty from the library
    itself (not the toolkit on PATH, which may differ). Call it after a GEMM through torch, before CuPy loads."""
    try:
        with open("/proc/self/maps") as maps:
            paths = sorted({line.split()[-1] for line in maps if "/libcublas.so" in line})
    except OSError:
        return []
    return [{"path": path, "version": _cublas_version(ctypes.CDLL(path))} for path in paths]


def _cublas_version(lib):
    parts = []
    for prop in range(len(CUBLAS_PROPERTIES)):
        value = ctypes.c_int(-1)
        if lib.cublasGetProperty(prop, ctypes.byref(value)) != 0:
            return None
        parts.append(value.value)
    return ".".join(map(str, parts))


def cupy_versions():
    try:
        import cupy
        from cupy_backends.cuda.libs import cublas
    except Exception:  # noqa: BLE001  (absent, or present but unable to start CUDA)
        return None
    found = {"cupy": cupy.__version__,
             "cuda_runtime": cupy.cuda.runtime.runtimeGetVersion(),
             "cuda_driver": cupy.cuda.runtime.driverGetVersion()}
    try:
        found["cublas"] = cublas.getVersion(cupy.cuda.device.get_cublas_handle())
    except Exception:  # noqa: BLE001  (older CuPy)
        found["cublas"] = None
    return found


def collect(torch, nvml):
    """Every field is read on its own: one the driver or a package cannot report is marked, not fatal."""
    props = torch.cuda.get_device_properties(0)
    fields = {
        "gpu": lambda: torch.cuda.get_device_name(0),
        "compute_capability": lambda: f"{props.major}.{props.minor}",
        "sms": lambda: props.multi_processor_count,
        "memory_gib": lambda: round(props.total_memory / 2**30, 1),
        "l2_bytes": lambda: getattr(props, "L2_cache_size", None),
        "torch_cuda": lambda: torch.version.cuda,
        "cublas_loaded_by_torch": loaded_cublas,   # before CuPy loads a libcublas of its own
        "cupy": cupy_versions,
        "packages": package_versions,
        "python": lambda: sys.version.split()[0],
        "platform": platform.platform,
        "ecgemm_module": _ecgemm_module,
        "ecgemm_version": lambda: getattr(__import__("ecgemm"), "__version__", None),
    }
    if nvml is not None:
        nv = nvml.nv
        fields.update({
            "driver": lambda: _text(nv.nvmlSystemGetDriverVersion()),
            "cuda_driver_api": nv.nvmlSystemGetCudaDriverVersion_v2,
            "nvml_device": lambda: _text(nv.nvmlDeviceGetName(nvml.handle)),
            "nvml_matched_by": lambda: nvml.matched_by,
        })
    env = {}
    for key, read in fields.items():
        try:
            env[key] = read()
        except Exception as exc:  # noqa: BLE001
            env[key] = f"unavailable: {type(exc).__name__}: {exc}"
    return env


def _ecgemm_module():
    import ecgemm
    return ecgemm.__file__


def pci_bus_id(torch):
    """NVML's bus id string for torch's device 0 (CUDA and NVML may number GPUs differently)."""
    props = torch.cuda.get_device_properties(0)
    try:
        return f"{props.pci_domain_id:08x}:{props.pci_bus_id:02x}:{props.pci_device_id:02x}.0"
    except AttributeError:
        return None


def _text(x):
    return x.decode() if isinstance(x, bytes) else x
