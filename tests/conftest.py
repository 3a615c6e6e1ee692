"""Shared pytest setup: tests marked ``gpu`` run only where ecgemm can use a GPU.

A machine without a usable GPU (CI, laptops) SKIPS them with the reason; it
never fails them. "Usable" means: ecgemm imports, sees a device, and device 0
has compute capability 8.0 or newer.
"""

from __future__ import annotations

import functools
from importlib import metadata
from typing import List, Optional

import pytest

MIN_COMPUTE_CAPABILITY = (8, 0)
# Array packages whose operands the GPU tests use, reported in the header of each run.
ARRAY_PACKAGES = ("numpy", "cupy-cuda13x", "cupy-cuda12x", "cupy", "torch", "numba",
                  "numba-cuda")


@functools.lru_cache(maxsize=None)
def gpu_skip_reason() -> Optional[str]:
    """Why GPU tests cannot run here, or None when they can."""
    try:
        import ecgemm
    except ImportError as error:
        return f"ecgemm is not importable: {error}"
    if ecgemm.device_count() == 0:
        return "no CUDA GPU usable by ecgemm (ecgemm.device_count() == 0)"
    try:
        props = ecgemm._device_properties(0)
    except ecgemm.EcgemmError as error:
        return f"cannot query GPU 0: {error}"
    if props["compute_capability"] < MIN_COMPUTE_CAPABILITY:
        major, minor = props["compute_capability"]
        return (f"GPU 0 ({props['name']}) has compute capability {major}.{minor}; "
                f"ecgemm needs 8.0 or newer")
    return None


def pytest_collection_modifyitems(config, items):
    gpu_items = [item for item in items if item.get_closest_marker("gpu")]
    if not gpu_items:
        return
    reason = gpu_skip_reason()
    if reason is None:
        return
    for item in gpu_items:
        item.add_marker(pytest.mark.skip(reason=reason))


def pytest_report_header(config) -> List[str]:
    """Versions of the array packages (read from metadata, nothing imported) and the GPU."""
    versions = []
    for name in ARRAY_PACKAGES:
        try:
            versions.append(f"{name} {metadata.version(name)}")
        except metadata.PackageNotFoundError:
            pass
    reason = gpu_skip_reason()
    if reason is None:
        import ecgemm

        props = ecgemm._device_properties(0)
        gpu = f"{props['name']} (sm_{''.join(map(str, props['compute_capability']))})"
    else:
        gpu = f"none, gpu tests skip: {reason}"
    return [f"array packages: {', '.join(versions) or 'none'}", f"GPU: {gpu}"]
