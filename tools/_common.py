"""What every tool needs: the repository root on sys.path (for bench/ and tests/_capi.py),
$OUT (the folder whose files a remote device run brings back), and the environment that
pins a call to one kernel family."""
import os
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
for _path in (ROOT, ROOT / "tests"):
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))

DEFAULT_OUT = "/tmp/out"


def out_dir() -> pathlib.Path:
    """$OUT (created on first use), where logs go; /tmp/out when unset."""
    path = pathlib.Path(os.environ.get("OUT") or DEFAULT_OUT)
    path.mkdir(parents=True, exist_ok=True)
    return path


# The environment that makes libecgemm run a call on one family, where that family can
# run it. ECGEMM_FAMILY is the planner's pin (libecgemm/planner.cpp); ECGEMM_TC_KERNEL and
# ECGEMM_CORRECTED_ROUTE did the same before it (dispatch.cpp, up to commit a0c3e2c).
# Both are set, so that one pin routes alike in old and new builds, which comparing them
# needs. (The GEMV kernels had no pin: GEMV-like shapes took them by default.)
_LEGACY_PINS = {"planes": {"ECGEMM_TC_KERNEL": "planes", "ECGEMM_CORRECTED_ROUTE": "tc"},
                "fused_wgmma": {"ECGEMM_TC_KERNEL": "fused", "ECGEMM_CORRECTED_ROUTE": "tc"},
                "fused_mma": {"ECGEMM_TC_KERNEL": "mma"},
                "simt": {"ECGEMM_CORRECTED_ROUTE": "simt"},
                "gemv": {}}
FAMILY_PINS = {name: {"ECGEMM_FAMILY": name, **legacy} for name, legacy in _LEGACY_PINS.items()}
PIN_VARIABLES = tuple(sorted({var for pins in FAMILY_PINS.values() for var in pins}))
