"""The computation modes, by the names the Python API uses.

The names come from libecgemm (``ecgemm_get_mode_name``), in ``ecgemmMode_t``'s order:
ecgemm.h's enum is the one table of modes, and every binding derives its list from it.
"""

from __future__ import annotations

from typing import Optional

from ._ecgemm import MODES

__all__ = ["MODES", "normalize_mode"]


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
