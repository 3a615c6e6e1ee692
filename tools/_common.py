"""What every tool needs: the repository root on sys.path (for bench/ and tests/_capi.py)
and $OUT, the folder whose files a remote device run brings back."""
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
