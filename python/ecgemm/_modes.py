"""The computation modes, by the names the Python API uses."""

from __future__ import annotations

from typing import Optional

# Same order as ecgemmMode_t in ecgemm.h.
MODES = ("tf32tf32", "halfhalf", "fp32", "tf32", "fp16", "markidis", "auto")


def normalize_mode(mode: Optional[str], *, allow_none: bool = True) -> Optional[str]:
    """Return `mode` lower-cased after checking that it names one of `MODES`.

    ``None`` (when allowed) means "the handle's mode" and is returned as is.
    """
    if mode is None and allow_none:
        return None
    if not isinstance(mode, str):
        raise TypeError(f"mode must be one of {MODES} as a string, got {type(mode).__name__}")
    name = mode.lower()
    if name not in MODES:
        raise ValueError(f"unknown mode {mode!r}; ecgemm.MODES lists the valid ones: {MODES}")
    return name
